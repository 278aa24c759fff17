package htmlreport

// Assets are the report page's chart library and chart script, for a page
// that draws the report's charts itself from ChartsJSON (the live
// dashboard of a run): the same code draws both, so a chart looks the same
// live and in the report.
func Assets() (echarts, script string) { return echartsJS, pageJS }
