// Starting the platform's processes and finding each service's migrations: shared by `npm start`,
// `npm run db:setup`, the benchmarks and the tests, and so kept out of the test library.
export * from './repo-root.js';
export * from './ports.js';
export * from './process.js';
export * from './platform.js';
export * from './migrations.registry.js';
export * from './dependencies.js';
