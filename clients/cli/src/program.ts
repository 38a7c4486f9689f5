import { Command, CommanderError } from 'commander';
import { PlatformApiError, PlatformConnectionError } from '@platform-sdk/client';
import { CommandFailed, EXIT, UsageError } from './cli-errors.js';
import { outcome } from './command.js';

/**
 * Each command's module, loaded only when that command runs: `platform run` then reads neither
 * yaml nor the sync code, which a pipeline pays for on every call. Help lists them all.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  login: async () => (await import('./commands/login.command.js')).loginCommand(),
  workflows: async () => (await import('./workflows/workflows.command.js')).workflowsCommand(),
  run: async () => (await import('./commands/run.command.js')).runCommand(),
  executions: async () => (await import('./commands/executions.command.js')).executionsCommand(),
  keys: async () => (await import('./commands/keys.command.js')).keysCommand(),
  triggers: async () => (await import('./commands/triggers.command.js')).triggersCommand(),
  webhooks: async () => (await import('./commands/webhooks.command.js')).webhooksCommand(),
  query: async () => (await import('./commands/query.command.js')).queryCommand(),
};

export const VERSION = '0.1.0';

/**
 * The program with the command `argv` names (every command when it names none, for help and usage
 * errors), with commander's own exits turned into errors so that `main` picks the code.
 */
export async function buildProgram(argv: string[] = []): Promise<Command> {
  const program = new Command('platform')
    .description('Deploy workflows from files, run them and follow them: from a terminal or a CI/CD pipeline')
    .version(VERSION)
    .showHelpAfterError('(add --help for usage and examples)')
    .addHelpText(
      'after',
      `
Connection: \`platform login\` saves one (--profile for several); PLATFORM_URL with PLATFORM_API_KEY
(or PLATFORM_TOKEN and PLATFORM_TENANT) override it, which is what a pipeline uses.
Exit codes: 0 done (a run succeeded), 1 failed (a run, a request, an invalid file), 2 wrong usage.

Examples:
  $ platform login --url https://automations.example.com
  $ platform workflows push ./workflows --dry-run
  $ platform run "Double it" --input @input.json --wait --timeout 10m
  $ platform executions logs <run id> --follow
`,
    );
  const named = Object.hasOwn(COMMANDS, argv[0] ?? '') ? [COMMANDS[argv[0]]] : Object.values(COMMANDS);
  for (const sub of await Promise.all(named.map((load) => load()))) program.addCommand(sub);
  const exitOverride = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.commands.forEach(exitOverride);
  };
  exitOverride(program);
  return program;
}

/** Runs the command line and answers its exit code; nothing here calls process.exit. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    outcome.code = EXIT.ok;
    await (await buildProgram(argv)).parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version are answers; anything else commander refuses is a usage error.
      if (['commander.helpDisplayed', 'commander.version'].includes(error.code)) return EXIT.ok;
      return error.code === 'commander.executeSubCommandAsync' ? EXIT.failed : EXIT.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof PlatformApiError) {
      process.stderr.write(`error: ${error.message} (${error.status} ${error.code}${error.requestId ? `, request ${error.requestId}` : ''})\n`);
      for (const d of error.details ?? []) process.stderr.write(`  ${d.field}: ${d.message}\n`);
      return EXIT.failed;
    }
    if (error instanceof PlatformConnectionError || error instanceof CommandFailed) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT.failed;
    }
    if (error instanceof Error && (error.name === 'AbortError' || error.message === 'interrupted')) {
      process.stderr.write('\ninterrupted\n');
      return 130;
    }
    throw error;
  }
}
