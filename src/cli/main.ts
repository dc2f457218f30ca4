// The `cliniq` organiser CLI: the command line of each command, its usage (`--help` everywhere)
// and its refusals. What a command does is imported when it runs, so `cliniq --help`, a command's
// `--help` and `cliniq stats …` start without loading the database client, the importers or zod.
import {
	IMPORT_PROBLEM_KINDS,
	IMPORT_PROBLEM_LABELS,
	IMPORT_WARNING_LABELS,
	QA_TYPES
} from '../lib/constants';
import { createReadStream, existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { basename } from 'node:path';
import { userInfo } from 'node:os';

import type { DatabaseHandle } from '$lib/server/db/client';
import type { StreamedFile } from '$lib/server/domain/imports/qa-import';
import type { MatchBy } from '$lib/server/domain/imports/response-import';
import type { ImportCounts, ImportWarning } from '$lib/server/domain/imports/import-errors';
import {
	UsageError,
	commandLineError,
	defaultIo,
	parseCommandLine,
	wantsHelp,
	type Io,
	type OptionsConfig
} from './io';

export const USAGE = `cliniq — organiser CLI of cliniq-portal

Usage:
  cliniq import qa <files…> [--dataset NAME]        import ClinIQLink QA files (JSON or JSONL)
  cliniq import passages <file>                      import source passages (JSON or CSV)
  cliniq import responses <files…> [--model NAME]    import model outputs (submission files or JSONL)
  cliniq import questions <files…> --set NAME [--description TEXT]   import a question set (JSON or JSONL)
  cliniq import set-responses <files…> --set NAME    import models' responses to a question set
  cliniq import documents <files…>                   import PubMed abstracts (JSONL of {pmid, title, abstract})
  cliniq import runs <files…> --set NAME [--keep-missing-documents]   import BioGen runs (2024 / 2025 formats)
  cliniq import judge <files…> --study ID [--judge NAME]   import an automatic judge's scores and preferences
  cliniq user create --email E --role R [--role R] [--name N] [--password P]
  cliniq items count [--type T]
  cliniq score run|cases …                           ClinIQLink Task-1 automatic metrics (see scoring/README.md)
  cliniq db migrate | cliniq db seed                 apply migrations | add demo data to an empty database
  cliniq db template                                 write the migrated template new PGlite folders copy
  cliniq bench [SUITE…] [--rate N …]                 run the benchmarks (all by default; cliniq bench --help)
  cliniq stats ratings|rankings|correlate|pairwise FILE …   agreement and ranking statistics
                                                     on CSV files, as JSON (cliniq stats --help)

cliniq COMMAND --help (or cliniq help COMMAND) prints a command's usage and options. A command line
the CLI cannot use (an unknown command or option, a missing value) is refused: exit status 2.
The database is DATABASE_URL (postgres://…), else the embedded PGlite folder ./data/pglite.`;

const usage = (message: string) => new UsageError(message);

/** The options of `cliniq import KIND`, each kind reading only its own. */
interface ImportValues {
	dataset?: string;
	model?: string;
	'match-by'?: string;
	'skip-unmatched'?: boolean;
	set?: string;
	description?: string;
	study?: string;
	judge?: string;
	'keep-missing-documents'?: boolean;
}

/** A command without subcommands of its own: its usage and the options it takes. */
interface Leaf {
	usage: string;
	options: OptionsConfig;
}

const IMPORT_KINDS: Record<string, Leaf> = {
	qa: {
		usage: `cliniq import qa <files…> [--dataset NAME]
  Imports ClinIQLink QA files: a JSON array (one type or mixed) or JSON Lines.
  --dataset NAME   the dataset to import into (default: default)`,
		options: { dataset: { type: 'string' } }
	},
	passages: {
		usage: `cliniq import passages <file>
  Imports the source passages QA pairs cite: JSON, or CSV with columns paragraph_id,text[,isbn,page].`,
		options: {}
	},
	responses: {
		usage: `cliniq import responses <files…> [--model NAME] [--dataset NAME] [--match-by auto|record|source|position|item] [--skip-unmatched]
  Imports model outputs: ClinIQLink submission files ({inputs, responses}) or JSON Lines of
  {"item": <item key>, "model": …, "response": …}.
  --model NAME       the model the outputs are of (else named in the file)
  --dataset NAME     the dataset whose items they answer (default: default)
  --match-by HOW     how an output finds its QA item (default: auto, detected per file)
  --skip-unmatched   import the others and list the outputs that match no item (else refuse the file)`,
		options: {
			model: { type: 'string' },
			dataset: { type: 'string' },
			'match-by': { type: 'string' },
			'skip-unmatched': { type: 'boolean' }
		}
	},
	questions: {
		usage: `cliniq import questions <files…> --set NAME [--description TEXT]
  Creates the question set NAME, or adds to it, from a JSON array, {"questions": […]} or JSON Lines.
  --set NAME           the question set (required)
  --description TEXT   the set's description (replaces an existing one)`,
		options: { set: { type: 'string' }, description: { type: 'string' } }
	},
	'set-responses': {
		usage: `cliniq import set-responses <files…> --set NAME
  Imports models' responses to the questions of set NAME (JSON or JSON Lines).
  --set NAME   the question set (required)`,
		options: { set: { type: 'string' } }
	},
	documents: {
		usage: `cliniq import documents <files…>
  Imports PubMed abstracts: JSON Lines, a JSON array or {"documents": […]} of {pmid, title?, abstract}.`,
		options: {}
	},
	runs: {
		usage: `cliniq import runs <files…> --set NAME [--keep-missing-documents]
  Imports BioGen runs (2024, 2025 task A or B; detected per file) answering the topics of set NAME.
  --set NAME                 the question set whose topics the runs answer (required)
  --keep-missing-documents   import runs citing PMIDs without an imported abstract (else refused)`,
		options: { set: { type: 'string' }, 'keep-missing-documents': { type: 'boolean' } }
	},
	judge: {
		usage: `cliniq import judge <files…> --study ID [--judge NAME]
  Imports an automatic judge's scores and preferences into an opened study (JSON or JSON Lines).
  --study ID     the study (required)
  --judge NAME   the judge of records that do not name one`,
		options: { study: { type: 'string' }, judge: { type: 'string' } }
	}
};

const IMPORT_USAGE = `Usage: cliniq import KIND <files…> [options]

Kinds:
${Object.values(IMPORT_KINDS)
	.map((k) => `  ${k.usage.split('\n')[0]}`)
	.join('\n')}

cliniq import KIND --help prints a kind's options. An import's warnings go to stderr (exit status
0); a rejected file imports nothing and lists its problems (exit status 2).`;

const USER_CREATE: Leaf = {
	usage: `cliniq user create --email E --role R [--role R] [--name N] [--password P]
  Creates an account.
  --email E      the sign-in address (required)
  --role R       a role (organiser, reviewer, adjudicator, physician…); repeat or separate by commas
  --name N       the display name (default: the address before @)
  --password P   the password (default: a generated one, printed once)`,
	options: {
		email: { type: 'string' },
		role: { type: 'string', multiple: true },
		name: { type: 'string' },
		password: { type: 'string' }
	}
};

const ITEMS_COUNT: Leaf = {
	usage: `cliniq items count [--type T]
  Prints the number of QA items of each type and their total.
  --type T   only the number of type T (${QA_TYPES.join(', ')})`,
	options: { type: { type: 'string' } }
};

const DB_SUBCOMMANDS: Record<string, Leaf> = {
	migrate: {
		usage: `cliniq db migrate
  Applies the migrations and the database functions to DATABASE_URL (else ./data/pglite).`,
		options: {}
	},
	seed: {
		usage: `cliniq db seed
  Adds demo accounts and data to a database without accounts (migrating it first).`,
		options: {}
	},
	template: {
		usage: `cliniq db template
  Writes the migrated, empty embedded database that a new PGlite folder copies (npm install runs it).`,
		options: {}
	}
};

/** A command's subcommands: `cliniq NAME SUB …`. */
const GROUPS: Record<string, { name: string; subcommands: Record<string, Leaf>; usage: string }> = {
	import: { name: 'import kind', subcommands: IMPORT_KINDS, usage: IMPORT_USAGE },
	user: {
		name: 'user subcommand',
		subcommands: {
			create: USER_CREATE
		},
		usage: `Usage: ${USER_CREATE.usage}`
	},
	items: {
		name: 'items subcommand',
		subcommands: {
			count: ITEMS_COUNT
		},
		usage: `Usage: ${ITEMS_COUNT.usage}`
	},
	db: {
		name: 'db subcommand',
		subcommands: DB_SUBCOMMANDS,
		usage: `Usage:\n${Object.values(DB_SUBCOMMANDS)
			.map((s) => `  ${s.usage.replaceAll('\n', '\n  ')}`)
			.join('\n')}`
	}
};

/** What `cliniq GROUP SUB args…` asked for: its usage, printed, or its parsed command line. */
type Parsed =
	| { help: true }
	| {
			help: false;
			sub: string;
			values: Record<string, string | boolean | (string | boolean)[] | undefined>;
			positionals: string[];
	  };

/**
 * Reads `cliniq GROUP SUB args…`: the group's usage for `--help` (or none given), the
 * subcommand's for `SUB --help`, else the subcommand's options, strictly.
 */
function parseGroup(group: string, args: string[], io: Io, positionals: boolean): Parsed {
	const { name, subcommands, usage: groupUsage } = GROUPS[group];
	const [sub, ...rest] = args;
	if (sub === undefined)
		throw usage(
			`Name the ${name}: ${Object.keys(subcommands).join('|')} (cliniq ${group} --help).`
		);
	if (sub === 'help' || sub === '--help' || sub === '-h') {
		io.stdout(groupUsage);
		return { help: true };
	}
	const leaf = Object.hasOwn(subcommands, sub) ? subcommands[sub] : undefined;
	if (!leaf)
		throw usage(
			`Unknown ${name} "${sub}": use ${Object.keys(subcommands).join('|')} (cliniq ${group} --help).`
		);
	if (wantsHelp(rest)) {
		io.stdout(`Usage: ${leaf.usage}`);
		return { help: true };
	}
	const line = parseCommandLine(`${group} ${sub}`, {
		args: rest,
		options: leaf.options,
		allowPositionals: positionals
	});
	return { help: false, sub, values: line.values, positionals: line.positionals };
}

function actor() {
	let name = 'unknown';
	try {
		name = userInfo().username;
	} catch {
		// no passwd entry (containers): keep "unknown"
	}
	return { userId: null, label: `cli (${name})` };
}

/** Files read as the import consumes them (its reader checks they are UTF-8). */
async function streamFiles(paths: string[]): Promise<StreamedFile[]> {
	if (!paths.length) throw usage('Name at least one file.');
	return Promise.all(
		paths.map(async (p) => {
			try {
				await access(p);
			} catch (e) {
				throw usage(
					`Cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`
				);
			}
			return { fileName: basename(p), chunks: createReadStream(p) };
		})
	);
}

function progress(io: Io, label: string) {
	let last = Date.now();
	return (done: number) => {
		const now = Date.now();
		if (now - last > 1000) {
			last = now;
			io.stderr(`${label}: ${done.toLocaleString('en')} records so far`);
		}
	};
}

async function withDb<T>(fn: (h: DatabaseHandle) => Promise<T>): Promise<T> {
	const { migrateDatabase, openDatabase, underMigrationLock } =
		await import('$lib/server/db/client');
	const handle = await openDatabase();
	try {
		await underMigrationLock(handle, () => migrateDatabase(handle));
		return await fn(handle);
	} finally {
		await handle.close();
	}
}

/** How many records of a warning or a rejection the CLI lists by name. */
const RECORDS_PRINTED = 50;

async function counts(io: Io, what: string, c: ImportCounts) {
	io.stdout(
		`Imported ${c.total} ${what} (import #${c.importId}): ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged.`
	);
	await printWarnings(io, c.warnings);
}

/** An accepted import's warnings, on stderr, so a script reading stdout gets only the summary. */
async function printWarnings(io: Io, warnings: ImportWarning[]) {
	if (!warnings.length) return;
	const { recordLabel } = await import('$lib/schemas/qa-record');
	for (const w of warnings) {
		io.stderr(`Warning: ${IMPORT_WARNING_LABELS[w.kind]}: ${w.message}`);
		for (const r of w.records.slice(0, RECORDS_PRINTED)) {
			io.stderr(`  ${recordLabel(r)} → ${r.field} → ${r.reason}`);
		}
		const unnamed = w.count - Math.min(w.records.length, RECORDS_PRINTED);
		if (unnamed > 0) io.stderr(`  … and ${unnamed} more`);
	}
}

async function importCommand(args: string[], io: Io) {
	const line = parseGroup('import', args, io, true);
	if (line.help) return;
	const { sub: kind, positionals } = line;
	const values = line.values as ImportValues;
	if (kind === 'qa') {
		const files = await streamFiles(positionals);
		const { importQaFiles } = await import('$lib/server/domain/imports/qa-import');
		await withDb(async ({ db }) => {
			await counts(
				io,
				'QA records',
				await importQaFiles(db, files, {
					actor: actor(),
					dataset: values.dataset,
					onProgress: progress(io, 'Writing items')
				})
			);
		});
	} else if (kind === 'passages') {
		if (positionals.length !== 1) throw usage('Name exactly one passages file.');
		const [file] = await streamFiles(positionals);
		const { importPassages } = await import('$lib/server/domain/imports/passage-import');
		await withDb(async ({ db }) =>
			counts(io, 'passages', await importPassages(db, file, { actor: actor() }))
		);
	} else if (kind === 'responses') {
		const files = await streamFiles(positionals);
		const { MATCH_BY, MATCH_BY_LABELS, importResponses } =
			await import('$lib/server/domain/imports/response-import');
		const matchBy = values['match-by'] ?? 'auto';
		if (matchBy !== 'auto' && !(MATCH_BY as readonly string[]).includes(matchBy))
			throw usage(`--match-by is one of auto, ${MATCH_BY.join(', ')}.`);
		await withDb(async ({ db }) => {
			const c = await importResponses(db, files, {
				actor: actor(),
				model: values.model,
				dataset: values.dataset,
				matchBy: matchBy as MatchBy | 'auto',
				unmatched: values['skip-unmatched'] ? 'skip' : 'reject'
			});
			for (const m of c.matches)
				io.stderr(
					`${m.file}: matched by ${MATCH_BY_LABELS[m.by]}${m.detected ? ' (detected)' : ''}`
				);
			await counts(io, `responses of ${c.models.join(', ')}`, c);
		});
	} else if (kind === 'questions' || kind === 'set-responses') {
		if (!values.set) throw usage('--set NAME is required: the question set to import into.');
		const setName = values.set;
		const files = await streamFiles(positionals);
		await withDb(async ({ db }) => {
			if (kind === 'questions') {
				const { importQuestions } =
					await import('$lib/server/domain/question-sets/question-import');
				const c = await importQuestions(db, files, {
					setName,
					description: values.description,
					actor: actor()
				});
				await counts(io, `questions into ${c.setCreated ? 'the new ' : ''}set "${setName}"`, c);
			} else {
				const { importSetResponses } =
					await import('$lib/server/domain/question-sets/response-import');
				const c = await importSetResponses(db, files, { setName, actor: actor() });
				await counts(io, `responses of ${c.models.join(', ')} to set "${setName}"`, c);
			}
		});
	} else if (kind === 'documents') {
		const files = await streamFiles(positionals);
		const { importDocuments } = await import('$lib/server/domain/documents/import');
		await withDb(async ({ db }) =>
			counts(io, 'documents', await importDocuments(db, files, actor()))
		);
	} else if (kind === 'runs') {
		if (!values.set)
			throw usage('--set NAME is required: the question set whose topics the runs answer.');
		const setName = values.set;
		const files = await streamFiles(positionals);
		const { importRuns, RUN_FORMAT_LABELS } =
			await import('$lib/server/domain/question-sets/run-import');
		await withDb(async ({ db }) => {
			const c = await importRuns(
				db,
				files,
				{
					setName,
					missingDocuments: values['keep-missing-documents'] ? 'keep' : 'reject'
				},
				actor()
			);
			for (const f of c.formats) io.stderr(`${f.file}: ${RUN_FORMAT_LABELS[f.format]}`);
			await counts(
				io,
				`answers of ${c.models.join(', ')} to set "${setName}" (${c.sentences} sentences written)`,
				c
			);
		});
	} else if (kind === 'judge') {
		const studyId = Number(values.study);
		if (!Number.isInteger(studyId) || studyId < 1) throw usage('--study ID is required.');
		const files = await streamFiles(positionals);
		const { importJudgeFile } = await import('$lib/server/domain/studies');
		await withDb(async ({ db }) => {
			// One file at a time, each all-or-nothing: a later file's judge may replace an earlier one.
			for (const file of files) {
				const r = await importJudgeFile(db, studyId, file, { judge: values.judge, actor: actor() });
				for (const j of r.judges)
					io.stdout(
						`${file.fileName}: judge ${j.name}: ${j.scores} scores, ${j.preferences} preferences (import #${r.importId})${j.replaced ? ', replacing its earlier import' : ''}.`
					);
				await printWarnings(io, r.warnings);
			}
		});
	}
}

async function userCommand(args: string[], io: Io) {
	const line = parseGroup('user', args, io, false);
	if (line.help) return;
	const values = line.values as {
		email?: string;
		role?: string[];
		name?: string;
		password?: string;
	};
	if (!values.email) throw usage('--email is required.');
	const email = values.email;
	const roles = (values.role ?? [])
		.flatMap((r) => r.split(','))
		.map((r) => r.trim())
		.filter(Boolean);
	const generated = !values.password;
	const { randomId } = await import('$lib/server/ids');
	const password = values.password ?? `${randomId(16)}`;
	const { createUser } = await import('$lib/server/domain/people/users');
	await withDb(async ({ db }) => {
		const created = await createUser(db, {
			email,
			displayName: values.name ?? email.split('@')[0],
			roles: roles as never,
			password
		});
		io.stdout(`Created ${created.email} with roles ${created.roles.join(', ')}.`);
		if (generated) io.stdout(`Password (shown once): ${password}`);
	});
}

async function itemsCommand(args: string[], io: Io) {
	const line = parseGroup('items', args, io, false);
	if (line.help) return;
	const { type } = line.values as { type?: string };
	if (type !== undefined && !(QA_TYPES as readonly string[]).includes(type))
		throw usage(`--type must be one of ${QA_TYPES.join(', ')}.`);
	const { countItemsByType } = await import('$lib/server/domain/items/items');
	await withDb(async ({ db }) => {
		const rows = await countItemsByType(db);
		if (type !== undefined) {
			io.stdout(String(rows.find((r) => r.type === type)?.n ?? 0));
			return;
		}
		for (const r of rows) io.stdout(`${r.type.padEnd(18)} ${r.n}`);
		io.stdout(`${'total'.padEnd(18)} ${rows.reduce((s, r) => s + r.n, 0)}`);
	});
}

async function dbCommand(args: string[], io: Io) {
	const line = parseGroup('db', args, io, false);
	if (line.help) return;
	if (line.sub === 'migrate') {
		await withDb(async (h) =>
			io.stdout(`Migrations and database functions applied (${h.kind}: ${h.location}).`)
		);
	} else if (line.sub === 'seed') {
		const { ensureDemoData } = await import('$lib/server/demo/seed');
		await withDb(async ({ db }) => {
			const seeded = await ensureDemoData(db, { print: io.stdout });
			if (!seeded) io.stdout('The database already has accounts; demo data was not added.');
		});
	} else if (line.sub === 'template') {
		const { path, written } = await writeTemplate();
		io.stdout(
			written
				? `Wrote the migrated embedded-database template: ${path}`
				: `The embedded-database template is up to date: ${path}`
		);
	}
}

/**
 * Writes the migrated, empty PGlite template for this checkout's migrations and database
 * functions (pglite-template.ts), unless it exists: an in-memory database, migrated, dumped.
 */
async function writeTemplate(): Promise<{ path: string; written: boolean }> {
	const { migrateDatabase, migrationsFolder, openDatabase } = await import('$lib/server/db/client');
	const { saveTemplate, templatePath } = await import('$lib/server/db/pglite-template');
	const path = templatePath(migrationsFolder());
	if (existsSync(path)) return { path, written: false };
	const handle = await openDatabase('pglite:memory');
	try {
		await migrateDatabase(handle);
		const client = (handle.db as unknown as { $client: import('@electric-sql/pglite').PGlite })
			.$client;
		const dump = await client.dumpDataDir('none');
		saveTemplate(path, new Uint8Array(await dump.arrayBuffer()));
		return { path, written: true };
	} finally {
		await handle.close();
	}
}

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
	const [command, ...rest] = argv;
	try {
		switch (command) {
			case 'import':
				await importCommand(rest, io);
				return 0;
			case 'user':
				await userCommand(rest, io);
				return 0;
			case 'items':
				await itemsCommand(rest, io);
				return 0;
			case 'db':
				await dbCommand(rest, io);
				return 0;
			case 'score': {
				const { runScoreCli } = await import('$scoring/cli');
				return await runScoreCli(rest, io);
			}
			case 'stats': {
				const { statsCommand } = await import('./stats');
				return await statsCommand(rest, io);
			}
			case 'bench': {
				const { runBenchmarks } = await import('./bench/index');
				return await runBenchmarks(rest, io);
			}
			case 'help':
			case '--help':
			case '-h':
				// `cliniq help import qa` is `cliniq import qa --help`.
				if (command === 'help' && rest.length) return await main([...rest, '--help'], io);
				io.stdout(USAGE);
				return 0;
			case undefined:
				io.stderr(USAGE);
				return 2;
			default:
				io.stderr(
					command.startsWith('-')
						? `Unknown option ${command}: name a command first (cliniq --help).`
						: `Unknown command "${command}".\n\n${USAGE}`
				);
				return 2;
		}
	} catch (e) {
		return report(e, io, command);
	}
}

/** A failed command's message on stderr; its exit status: 2 for a refused input, else 1. */
async function report(e: unknown, io: Io, command: string): Promise<number> {
	const refused = e instanceof UsageError ? e : commandLineError(e, command);
	if (refused) {
		io.stderr(`Error: ${refused.message}`);
		return 2;
	}
	// Loaded only now: a command that threw them has loaded them already.
	const [{ DomainError }, { problemKind, recordLabel }, { z }] = await Promise.all([
		import('$lib/server/errors'),
		import('$lib/schemas/qa-record'),
		import('zod')
	]);
	if (e instanceof DomainError && e.records.length) {
		io.stderr(e.message);
		for (const kind of IMPORT_PROBLEM_KINDS) {
			const group = e.records.filter((r) => problemKind(r) === kind);
			if (!group.length) continue;
			io.stderr(`${IMPORT_PROBLEM_LABELS[kind]} (${group.length}):`);
			for (const err of group.slice(0, RECORDS_PRINTED)) {
				io.stderr(`  ${recordLabel(err)} → ${err.field} → ${err.reason}`);
			}
			if (group.length > RECORDS_PRINTED)
				io.stderr(`  … and ${group.length - RECORDS_PRINTED} more`);
		}
		return 2;
	}
	if (e instanceof z.ZodError) {
		const issue = e.issues[0];
		io.stderr(`Error: ${String(issue.path[0] ?? 'input')} ${issue.message}`);
		return 2;
	}
	io.stderr(`Error: ${(e as Error).message}`);
	return e instanceof DomainError ? 2 : 1;
}
