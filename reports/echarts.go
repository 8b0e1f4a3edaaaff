package reports

import _ "embed"

//go:generate sh assets/fetch-echarts.sh

// EChartsVersion is the release of Apache ECharts that Render inlines in
// every report (assets/echarts.min.js, Apache License 2.0). It is the
// version go-echarts v2.6.7 targets.
const EChartsVersion = "5.4.3"

// echartsJS is the full minified ECharts build; see assets/README.md.
//
//go:embed assets/echarts.min.js
var echartsJS string
