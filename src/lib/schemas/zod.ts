import { z } from 'zod';

// In the browser zod must not probe for `Function` (its fast path): the Content-Security-Policy
// forbids eval, and the probe would be reported as a violation on every page using a schema. The
// server keeps the fast path.
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
