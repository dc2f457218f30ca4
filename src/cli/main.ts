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
import { parseArgs } from 'node:util';
import { z } from 'zod';

import {
	migrateDatabase,
	migrationsFolder,
	openDatabase,
	underMigrationLock,
	type DatabaseHandle
} from '$lib/server/db/client';
import { saveTemplate, templatePath } from '$lib/server/db/pglite-template';
import { ensureDemoData } from '$lib/server/demo/seed';
import { countItemsByType } from '$lib/server/domain/items/items';
import { importPassages } from '$lib/server/domain/imports/passage-import';
import { importQaFiles, type StreamedFile } from '$lib/server/domain/imports/qa-import';
import {
	MATCH_BY,
	MATCH_BY_LABELS,
	importResponses,
	type MatchBy
} from '$lib/server/domain/imports/response-import';
import { importJudgeFile } from '$lib/server/domain/studies';
import { createUser } from '$lib/server/domain/people/users';
import { importQuestions } from '$lib/server/domain/question-sets/question-import';
import { importSetResponses } from '$lib/server/domain/question-sets/response-import';
import { importRuns, RUN_FORMAT_LABELS } from '$lib/server/domain/question-sets/run-import';
import { importDocuments } from '$lib/server/domain/documents/import';
import { problemKind, recordLabel } from '$lib/schemas/qa-record';
import type { ImportCounts, ImportWarning } from '$lib/server/domain/imports/import-errors';
import { DomainError } from '$lib/server/errors';
import { randomId } from '$lib/server/ids';
import { defaultIo, type Io } from './io';

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
  cliniq bench [import|scoring|review|ranking|stats|rubric|http] [--rate N …]  run the benchmarks (all by default)
  cliniq stats ratings|rankings|correlate|pairwise FILE …   agreement and ranking statistics
                                                     on CSV files, as JSON (cliniq stats --help)

The database is DATABASE_URL (postgres://…), else the embedded PGlite folder ./data/pglite.`;

/** A usage mistake: the command line itself is refused. */
const usage = (message: string) => new DomainError('invalid', message);

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

function counts(io: Io, what: string, c: ImportCounts) {
	io.stdout(
		`Imported ${c.total} ${what} (import #${c.importId}): ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged.`
	);
	printWarnings(io, c.warnings);
}

/** An accepted import's warnings, on stderr, so a script reading stdout gets only the summary. */
function printWarnings(io: Io, warnings: ImportWarning[]) {
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
	const [kind, ...rest] = args;
	const { values, positionals } = parseArgs({
		args: rest,
		allowPositionals: true,
		options: {
			dataset: { type: 'string' },
			model: { type: 'string' },
			'match-by': { type: 'string' },
			'skip-unmatched': { type: 'boolean' },
			set: { type: 'string' },
			description: { type: 'string' },
			study: { type: 'string' },
			judge: { type: 'string' },
			'keep-missing-documents': { type: 'boolean' }
		}
	});
	if (kind === 'qa') {
		const files = await streamFiles(positionals);
		await withDb(async ({ db }) => {
			counts(
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
		await withDb(async ({ db }) =>
			counts(io, 'passages', await importPassages(db, file, { actor: actor() }))
		);
	} else if (kind === 'responses') {
		const files = await streamFiles(positionals);
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
			counts(io, `responses of ${c.models.join(', ')}`, c);
		});
	} else if (kind === 'questions' || kind === 'set-responses') {
		if (!values.set) throw usage('--set NAME is required: the question set to import into.');
		const setName = values.set;
		const files = await streamFiles(positionals);
		await withDb(async ({ db }) => {
			if (kind === 'questions') {
				const c = await importQuestions(db, files, {
					setName,
					description: values.description,
					actor: actor()
				});
				counts(io, `questions into ${c.setCreated ? 'the new ' : ''}set "${setName}"`, c);
			} else {
				const c = await importSetResponses(db, files, { setName, actor: actor() });
				counts(io, `responses of ${c.models.join(', ')} to set "${setName}"`, c);
			}
		});
	} else if (kind === 'documents') {
		const files = await streamFiles(positionals);
		await withDb(async ({ db }) =>
			counts(io, 'documents', await importDocuments(db, files, actor()))
		);
	} else if (kind === 'runs') {
		if (!values.set)
			throw usage('--set NAME is required: the question set whose topics the runs answer.');
		const setName = values.set;
		const files = await streamFiles(positionals);
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
			counts(
				io,
				`answers of ${c.models.join(', ')} to set "${setName}" (${c.sentences} sentences written)`,
				c
			);
		});
	} else if (kind === 'judge') {
		const studyId = Number(values.study);
		if (!Number.isInteger(studyId) || studyId < 1) throw usage('--study ID is required.');
		const files = await streamFiles(positionals);
		await withDb(async ({ db }) => {
			// One file at a time, each all-or-nothing: a later file's judge may replace an earlier one.
			for (const file of files) {
				const r = await importJudgeFile(db, studyId, file, { judge: values.judge, actor: actor() });
				for (const j of r.judges)
					io.stdout(
						`${file.fileName}: judge ${j.name}: ${j.scores} scores, ${j.preferences} preferences (import #${r.importId})${j.replaced ? ', replacing its earlier import' : ''}.`
					);
				printWarnings(io, r.warnings);
			}
		});
	} else {
		throw usage(
			'Use: cliniq import qa|passages|responses|questions|set-responses|documents|runs|judge <files…>'
		);
	}
}

async function userCommand(args: string[], io: Io) {
	const [sub, ...rest] = args;
	if (sub !== 'create') throw usage('Use: cliniq user create --email E --role R');
	const { values } = parseArgs({
		args: rest,
		options: {
			email: { type: 'string' },
			role: { type: 'string', multiple: true },
			name: { type: 'string' },
			password: { type: 'string' }
		}
	});
	if (!values.email) throw usage('--email is required.');
	const roles = (values.role ?? [])
		.flatMap((r) => r.split(','))
		.map((r) => r.trim())
		.filter(Boolean);
	const generated = !values.password;
	const password = values.password ?? `${randomId(16)}`;
	await withDb(async ({ db }) => {
		const created = await createUser(db, {
			email: values.email!,
			displayName: values.name ?? values.email!.split('@')[0],
			roles: roles as never,
			password
		});
		io.stdout(`Created ${created.email} with roles ${created.roles.join(', ')}.`);
		if (generated) io.stdout(`Password (shown once): ${password}`);
	});
}

async function itemsCommand(args: string[], io: Io) {
	const [sub, ...rest] = args;
	if (sub !== 'count') throw usage('Use: cliniq items count [--type T]');
	const { values } = parseArgs({ args: rest, options: { type: { type: 'string' } } });
	const type = values.type === undefined ? undefined : z.enum(QA_TYPES).safeParse(values.type);
	if (type && !type.success) throw usage(`--type must be one of ${QA_TYPES.join(', ')}.`);
	await withDb(async ({ db }) => {
		const rows = await countItemsByType(db);
		if (type?.success) {
			io.stdout(String(rows.find((r) => r.type === type.data)?.n ?? 0));
			return;
		}
		for (const r of rows) io.stdout(`${r.type.padEnd(18)} ${r.n}`);
		io.stdout(`${'total'.padEnd(18)} ${rows.reduce((s, r) => s + r.n, 0)}`);
	});
}

async function dbCommand(args: string[], io: Io) {
	const [sub] = args;
	if (sub === 'migrate') {
		await withDb(async (h) =>
			io.stdout(`Migrations and database functions applied (${h.kind}: ${h.location}).`)
		);
	} else if (sub === 'seed') {
		await withDb(async ({ db }) => {
			const seeded = await ensureDemoData(db, { print: io.stdout });
			if (!seeded) io.stdout('The database already has accounts; demo data was not added.');
		});
	} else if (sub === 'template') {
		const { path, written } = await writeTemplate();
		io.stdout(
			written
				? `Wrote the migrated embedded-database template: ${path}`
				: `The embedded-database template is up to date: ${path}`
		);
	} else throw usage('Use: cliniq db migrate|seed|template');
}

/**
 * Writes the migrated, empty PGlite template for this checkout's migrations and database
 * functions (pglite-template.ts), unless it exists: an in-memory database, migrated, dumped.
 */
async function writeTemplate(): Promise<{ path: string; written: boolean }> {
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
			case undefined:
			case 'help':
			case '--help':
			case '-h':
				io.stdout(USAGE);
				return command === undefined ? 1 : 0;
			default:
				io.stderr(`Unknown command "${command}".\n\n${USAGE}`);
				return 1;
		}
	} catch (e) {
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
		const code = (e as NodeJS.ErrnoException).code;
		if (e instanceof DomainError || code?.startsWith('ERR_PARSE_ARGS')) {
			io.stderr(`Error: ${(e as Error).message}`);
			return 2;
		}
		io.stderr(`Error: ${(e as Error).message}`);
		return 1;
	}
}
