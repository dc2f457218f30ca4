// Datasets and versioned items: what other features and the routes may use (see README.md).
export { diffRecords, type DiffSegment, type FieldDiff } from './correction-diff';
export {
	applyListOp,
	checkCorrection,
	valuesFromForm,
	type CorrectionErrors,
	type CorrectionValues,
	type ListField
} from './correction-form';
export { correctItem, correctionStart, saveCorrection, withdrawItem } from './corrections';
export { ensureDataset, listDatasets } from './datasets';
export { itemForDisplay } from './display';
export { contentHash, itemKey, typedFields } from './fields';
export { heldSql } from './held';
export {
	ITEM_SORTS,
	countItemsByType,
	exportItems,
	getItem,
	itemsCsv,
	listImports,
	listItems,
	parseItemQuery
} from './items';
export { encodeCursor, orderBy, sortValue, type ItemSort } from './keyset';
export { resolveItemOutcome, type Outcome } from './outcome';
export { adminOverview, countItemsByStateAndOutcome, stateAndOutcomeTotals } from './overview';
export { noPassageSql } from './passage';
