import { describe, expect, it } from '@jest/globals';
import { buildProgram } from '../src/program.js';

describe('loading the commands', () => {
  it('builds only the command the arguments name: `platform run` loads no other module', async () => {
    const program = await buildProgram(['run', 'Double it', '--wait']);
    expect(program.commands.map((c) => c.name())).toEqual(['run']);
  });

  it('builds every command when none is named, so help and usage errors list them all', async () => {
    for (const argv of [[], ['--help'], ['nonsense'], ['constructor']]) {
      const names = (await buildProgram(argv)).commands.map((c) => c.name());
      expect(names).toEqual(['login', 'workflows', 'run', 'executions', 'keys', 'triggers', 'webhooks', 'query']);
    }
  });
});
