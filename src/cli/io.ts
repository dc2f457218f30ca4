// The command line's input and output: where a command writes, and how every command reads its
// arguments (node:util parseArgs in strict mode, --help, refusals that name the command).
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The options a command takes, as parseArgs reads them. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** Where a command writes: stdout for results, stderr for messages (tests pass their own). */
export interface Io {
	stdout: (s: string) => void;
	stderr: (s: string) => void;
}

export const defaultIo: Io = {
	stdout: (s) => process.stdout.write(s + '\n'),
	stderr: (s) => process.stderr.write(s + '\n')
};

/** A command line the CLI refuses: `Error: <message>` on stderr, exit status 2. */
export class UsageError extends Error {}

/** Whether the arguments ask for a command's usage: `--help` or `-h` before any `--`. */
export function wantsHelp(args: readonly string[]): boolean {
	const end = args.indexOf('--');
	return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * A parseArgs refusal (an unknown option, a missing value, an unexpected argument) as a
 * UsageError naming the option, the command and, when known, the options it takes; null for any
 * other error.
 */
export function commandLineError(
	e: unknown,
	command: string,
	options?: OptionsConfig
): UsageError | null {
	const code = (e as NodeJS.ErrnoException | undefined)?.code;
	if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return null;
	const message = (e as Error).message;
	const help = `cliniq ${command} --help`;
	const unknown = /^Unknown option '([^']+)'/.exec(message);
	if (!unknown) return new UsageError(`${message} (${help})`);
	const names = options && Object.keys(options).map((n) => `--${n}`);
	const takes =
		names === undefined
			? ''
			: names.length
				? `; it takes ${names.join(', ')}`
				: '; it takes no options';
	return new UsageError(`Unknown option ${unknown[1]} for cliniq ${command}${takes} (${help}).`);
}

/** parseArgs (strict: unknown options refused), its refusals as UsageErrors naming `command`. */
export function parseCommandLine<T extends ParseArgsConfig>(
	command: string,
	config: T
): ReturnType<typeof parseArgs<T>> {
	try {
		return parseArgs(config);
	} catch (e) {
		throw commandLineError(e, command, config.options) ?? e;
	}
}
