// How much each rater, and each institution, can be trusted on a benchmark study (see README.md).
export {
	FAST_RATER_SHARE,
	POSITION_BIAS_P,
	REPORT_RESAMPLES,
	benchmarkStudies,
	labelFamily,
	raterQualityReport,
	reviewedDatasets,
	reviewerQualityReport,
	type Judged,
	type InstitutionQuality,
	type PositionBias,
	type QualityFigures,
	type RaterQuality,
	type RaterQualityReport,
	type WeekFigures
} from './report';
