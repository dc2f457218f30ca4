// The organiser's workload view: what the routes may use (see README.md).
export { sortRows, workload } from './workload';
