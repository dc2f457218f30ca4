/** Where a command writes: stdout for results, stderr for messages (tests pass their own). */
export interface Io {
	stdout: (s: string) => void;
	stderr: (s: string) => void;
}

export const defaultIo: Io = {
	stdout: (s) => process.stdout.write(s + '\n'),
	stderr: (s) => process.stderr.write(s + '\n')
};
