// Documents: the PubMed abstracts answers cite, imported once by PMID and read by the evidence
// studies and the run import's check of citations.
export { importDocuments } from './import';
export { documentCount, getDocuments, listDocuments, type DocumentSummary } from './documents';
export { ABSTRACT_LIMIT } from './fields';
