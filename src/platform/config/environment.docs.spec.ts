import { getMetadataStorage } from 'class-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Environment } from './environment';

// The operator's reference must name every variable the service reads: one left out is a setting
// nobody finds. The variables are Environment's validated properties, read from class-validator's
// own metadata, so a variable added to the class without a line in the guide fails here.
describe('docs/configuration.md', () => {
  const guide = readFileSync(join(__dirname, '../../../docs/configuration.md'), 'utf8');
  const variables = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(Environment, '', true, false)
        .map(({ propertyName }) => propertyName),
    ),
  ];

  it('reads the variables from Environment', () => {
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'SMTP_URL', 'TRUST_PROXY']));
  });

  it.each(variables)('names %s', (variable) => {
    expect(guide).toContain(`\`${variable}\``);
  });
});
