// Draws the report's charts from the JSON in #tsbench-data with Apache
// ECharts (SVG renderer), then lists every chart with the points it plotted
// in window.__tsbenchCharts and #tsbench-chart-check (read by the tests).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("tsbench-data").textContent);
  var results = [];
  var charts = [];
  var multi = data.runs > 1;
  var palette = ["#2f5fd0", "#e8742a", "#2a9d5c", "#c2364a", "#7b52c7", "#8c6d31", "#d45fb0", "#5f6b7a",
    "#1fa6b8", "#b8a21f", "#3d3d8f"];
  // With several runs a series' colour tells what it shows and its line
  // style which run it is: A solid, B dashed, C dotted, ...
  var runStyles = ["solid", "dashed", "dotted", [10, 4, 2, 4], [2, 6]];

  // The percentile axis plots 1/(1-q): 10 is 90 %, 100 is 99 %, ...
  function percentLabel(x) {
    if (x <= 1) return "0%";
    var q = 100 * (1 - 1 / x);
    var digits = Math.max(0, Math.round(Math.log10(x)) - 2);
    return q.toFixed(Math.min(digits, 6)) + "%";
  }

  function number(v) {
    if (typeof v !== "number") return v;
    var a = Math.abs(v);
    if (a >= 1000) return Math.round(v).toLocaleString("en-US");
    if (a >= 1) return v.toFixed(2);
    return v.toPrecision(3);
  }

  // drawnPoints counts the data points the line series were laid out at
  // (finite screen coordinates), i.e. what the chart actually drew.
  function drawnPoints(chart) {
    var n = 0;
    try {
      chart.getModel().eachSeries(function (s) {
        var pts = s.getData().getLayout("points");
        if (!pts) return;
        for (var i = 0; i + 1 < pts.length; i += 2) {
          if (isFinite(pts[i]) && isFinite(pts[i + 1])) n++;
        }
      });
    } catch (e) {
      n = -1;
    }
    return n;
  }

  data.sections.forEach(function (sec) {
    var box = document.getElementById("charts-" + sec.id);
    if (!box) return;
    sec.charts.forEach(function (c) {
      var div = document.createElement("div");
      div.className = "chart";
      div.id = "chart-" + c.id;
      box.appendChild(div);
      var chart = echarts.init(div, null, { renderer: "svg" });
      var keys = {};
      var percentile = c.xKind === "percentile";
      var xAxis = percentile
        ? { type: "log", logBase: 10, min: 1, name: c.xName, nameLocation: "middle", nameGap: 28,
            axisLabel: { formatter: percentLabel } }
        : { type: "value", min: 0, name: c.xName, nameLocation: "middle", nameGap: 28 };
      var yAxis = { type: c.yLog ? "log" : "value", name: c.yName, scale: !c.yLog,
        axisLabel: { formatter: number } };
      if (!c.yLog) yAxis.min = 0;
      chart.setOption({
        animation: false,
        title: { text: c.title, subtext: c.subtitle || "", left: "center", textStyle: { fontSize: 14 },
          subtextStyle: { fontSize: 11 } },
        tooltip: {
          trigger: "axis",
          valueFormatter: number,
          axisPointer: percentile ? { label: { formatter: function (p) { return percentLabel(p.value); } } } : {}
        },
        legend: { type: "scroll", bottom: 0 },
        grid: { left: 50, right: 30, top: 70, bottom: 70, containLabel: true },
        toolbox: { right: 10, top: 42, itemSize: 13, feature: { dataZoom: { yAxisIndex: "none" }, restore: {}, saveAsImage: {} } },
        xAxis: xAxis,
        yAxis: yAxis,
        series: c.series.map(function (s) {
          if (keys[s.key] === undefined) keys[s.key] = Object.keys(keys).length;
          var style = multi ? runStyles[s.runIndex % runStyles.length] : (s.dashed ? "dashed" : "solid");
          return {
            name: s.name, type: "line", data: s.data, showSymbol: s.data.length <= 40, symbolSize: 5,
            color: palette[keys[s.key] % palette.length],
            lineStyle: { type: style, width: 1.6 }, emphasis: { focus: "series" }
          };
        })
      });
      var points = 0;
      c.series.forEach(function (s) { points += s.data.length; });
      results.push({
        id: c.id, title: c.title, series: c.series.length, points: points,
        drawn: drawnPoints(chart), svgPaths: div.querySelectorAll("svg path").length
      });
      charts.push(chart);
    });
  });
  window.addEventListener("resize", function () { charts.forEach(function (ch) { ch.resize(); }); });
  window.__tsbenchCharts = results;
  document.getElementById("tsbench-chart-check").textContent = JSON.stringify(results);
})();
