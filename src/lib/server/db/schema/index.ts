export * from './enums';
export * from './user';
export * from './audit';
export * from './content';
export * from './review';
export * from './ranking';
export * from './scoring';
export * from '../relations';
