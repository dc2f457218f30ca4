import type { HandleServerError, ServerInit } from '@sveltejs/kit';
import { sequence } from '@sveltejs/kit/hooks';
import { startApp } from '$lib/server/startup';
import { authHandle } from '$lib/server/hooks/auth';
import { consentHandle } from '$lib/server/hooks/consent';
import { reportError } from '$lib/server/hooks/errors';
import { inputHandle } from '$lib/server/hooks/input';
import { securityHandle } from '$lib/server/hooks/security';

export const init: ServerInit = async () => {
	await startApp();
};

export const handle = sequence(inputHandle, authHandle, consentHandle, securityHandle);

export const handleError: HandleServerError = reportError;
