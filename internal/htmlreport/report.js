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

  // Axis labels: whole numbers grouped ("400,000"), others as the tooltip.
  function axisNumber(v) {
    return Number.isInteger(v) ? v.toLocaleString("en-US") : number(v);
  }

  // One key in the whole chart (a small multiple, a spectrum): every line
  // shows the same thing, so colour can tell the runs apart as well.
  function colourIndex(c, s, keys) {
    if (Object.keys(keys).length === 1) return s.runIndex;
    return keys[s.key];
  }

  // legendHeight estimates the rows a plain (unpaged) legend wraps into,
  // so that the plot leaves room for all of them.
  function legendHeight(c, width) {
    if (c.series.length < 2) return 0;
    var rows = 1, x = 0;
    c.series.forEach(function (s) {
      var w = 34 + 6.4 * s.name.length;
      if (x > 0 && x + w > width - 20) { rows++; x = 0; }
      x += w;
    });
    return rows * 20;
  }

  function axes(c) {
    var percentile = c.xKind === "percentile";
    // The x axis ends at the last data point: ECharts would otherwise round
    // it up to the next "nice" tick (a 12 s run drawn out to 14 s).
    var xAxis = percentile
      ? { type: "log", logBase: 10, min: 1, max: "dataMax", axisLabel: { formatter: percentLabel } }
      : { type: "value", min: 0, max: "dataMax", axisLabel: { formatter: axisNumber } };
    xAxis.name = c.xName;
    xAxis.nameLocation = "middle";
    xAxis.nameGap = 24;
    var yAxis = { type: c.yLog ? "log" : "value", name: c.yName, axisLabel: { formatter: axisNumber },
      nameTextStyle: { align: "left" } };
    if (!c.yLog) yAxis.min = 0;
    return { x: xAxis, y: yAxis };
  }

  // stallAreas shades the chart's bands (the runs' stalls) behind its
  // lines, each labelled.
  function stallAreas(c) {
    if (!c.bands || !c.bands.length) return undefined;
    return {
      silent: true, itemStyle: { color: "rgba(214, 39, 40, 0.10)" },
      label: { show: !c.small, position: "insideTop", fontSize: 10, color: "#a33" },
      data: c.bands.map(function (b) { return [{ name: b.label, xAxis: b.from }, { xAxis: b.to }]; })
    };
  }

  function draw(box, c) {
    var div = document.createElement("div");
    div.className = "chart";
    div.id = "chart-" + c.id;
    box.appendChild(div);
    var chart = echarts.init(div, null, { renderer: "svg" });
    var keys = {};
    c.series.forEach(function (s) { if (keys[s.key] === undefined) keys[s.key] = Object.keys(keys).length; });
    var percentile = c.xKind === "percentile";
    var ax = axes(c);
    var legend = legendHeight(c, div.clientWidth || 500);
    var top = c.small ? 34 : (c.subtitle ? 62 : 40);
    chart.setOption({
      animation: false,
      title: { text: c.title, subtext: c.small ? "" : (c.subtitle || ""), left: "center",
        textStyle: { fontSize: c.small ? 13 : 14 }, subtextStyle: { fontSize: 11 } },
      tooltip: {
        trigger: "axis",
        valueFormatter: number,
        axisPointer: percentile ? { label: { formatter: function (p) { return percentLabel(p.value); } } } : {}
      },
      legend: { type: "plain", show: legend > 0, bottom: 0, itemWidth: 22, itemHeight: 10, textStyle: { fontSize: 11 } },
      grid: { left: 12, right: 24, top: top, bottom: 30 + legend, containLabel: true },
      toolbox: c.small ? { show: false } : { right: 10, top: 0, itemSize: 13, feature: { dataZoom: { yAxisIndex: "none" }, restore: {}, saveAsImage: {} } },
      xAxis: ax.x,
      yAxis: ax.y,
      series: c.series.map(function (s, i) {
        var style = multi ? runStyles[s.runIndex % runStyles.length] : (s.dashed ? "dashed" : "solid");
        return {
          name: s.name, type: "line", data: s.data, showSymbol: s.data.length <= 40, symbolSize: 5,
          color: palette[colourIndex(c, s, keys) % palette.length],
          lineStyle: { type: style, width: 1.6 }, emphasis: { focus: "series" },
          markArea: i === 0 ? stallAreas(c) : undefined
        };
      })
    });
    var points = 0;
    c.series.forEach(function (s) { points += s.data.length; });
    results.push({
      id: c.id, op: c.op || "", title: c.title, series: c.series.length, points: points,
      bands: (c.bands || []).length,
      drawn: drawnPoints(chart), svgPaths: div.querySelectorAll("svg path").length
    });
    charts.push(chart);
  }

  data.sections.forEach(function (sec) {
    var box = document.getElementById("charts-" + sec.id);
    if (!box) return;
    sec.charts.forEach(function (c) { draw(box, c); });
  });
  window.addEventListener("resize", function () { charts.forEach(function (ch) { ch.resize(); }); });
  window.__tsbenchCharts = results;
  document.getElementById("tsbench-chart-check").textContent = JSON.stringify(results);
})();
