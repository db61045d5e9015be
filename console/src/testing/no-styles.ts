// Stylesheets mean nothing to jsdom: an import of one is this empty module.
export {};
