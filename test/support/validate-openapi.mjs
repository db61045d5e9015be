// Validates the OpenAPI document on stdin with a maintained validator (an ES module, which jest's
// CommonJS sandbox cannot load): prints the errors and exits 1 when it is not valid.
import SwaggerParser from '@apidevtools/swagger-parser';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
try {
  await SwaggerParser.validate(JSON.parse(Buffer.concat(chunks).toString()));
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
