// Insight's face: visits, sales figures, reports and the dashboard. Nothing imports insight but
// routes and the boot code (docs/architecture.md).

export { BEACON_MAX_BYTES, parseBeacon, recordBeacon } from "./analytics/beacon.server";
export { analyticsView } from "./analytics/figures.server";
export { SEARCH_RESULTS_HEADER } from "./analytics/search-terms.server";
export { stopVisitCounting } from "./analytics/visits.server";
export { getAttentionItems } from "./dashboard/attention.server";
export { FailedJobError, failedJobsPage, failedWorkCounts, tryFailedJobAgain } from "./dashboard/failed-work.server";
export { getDashboardStats, getRecentActivity } from "./dashboard/dashboard.server";
export { reportCsvChunks, reportFilename, reportTable } from "./reports/reports.server";
