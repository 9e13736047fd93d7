// Metric slots of the aggregate cells. Everything except `leads` is attributed to the quarter of the page
// view it belongs to; a lead counts in the quarter in which the form was submitted.
export const RESOURCE_METRICS = {
	pageViews: 0,
	dwellSeconds: 1,
	/** Sum over page views of the deepest scroll depth reached (0..100). */
	scrollDepth: 2,
	/** Four slots: page views whose depth is in [0,25), [25,50), [50,75), [75,100]. */
	scrollBands: 3,
	ctaViews: 7,
	ctaClicks: 8,
	formSubmits: 9,
	leads: 10,
	/** Five slots: page views whose furthest funnel step is page_view .. form_submit. */
	funnelLevels: 11,
} as const;
export const RESOURCE_WIDTH = 16;

export const SOURCE_METRICS = { pageViews: 0, leads: 1 } as const;
export const SOURCE_WIDTH = 2;

export const FUNNEL_STEPS = [
	'page_view',
	'scroll_50pct',
	'cta_view',
	'cta_click',
	'form_submit',
] as const;
export const SCROLL_BANDS = ['0_25', '25_50', '50_75', '75_100'] as const;

export function scrollBand(depth: number): number {
	return depth >= 75 ? 3 : Math.floor(depth / 25);
}

/** The UTM source label used by the channel analytics. */
export const DIRECT_SOURCE = '(direct)';
