import { buildTemplate, dropTemplate } from './template';

/** Builds the e2e template database once per run; every spec file starts from a copy of it. */
export default async function globalSetup() {
	const template = await buildTemplate();
	return async () => dropTemplate(template);
}
