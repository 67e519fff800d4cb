'use strict';
// Counters, gauges and histograms, each a family with a fixed list of label names. A series
// (one combination of label values) is a plain cell made once by cell(...values); recording
// then changes that cell in place, so the hot path allocates nothing and looks nothing up.
// Values read from elsewhere (a cache's own counters) are copied into their cells by the
// registry's scrape hooks, just before rendering.

const { METRIC_NAME, LABEL_NAME, labelPairs, render } = require('./exposition');

class Family {
  constructor(type, name, help, labelNames) {
    if (!METRIC_NAME.test(name)) throw new Error(`metric name "${name}" is not [a-zA-Z_:][a-zA-Z0-9_:]*`);
    const bad = labelNames.find((label) => !LABEL_NAME.test(label) || (type === 'histogram' && label === 'le'));
    if (bad !== undefined) throw new Error(`${name}: label name "${bad}" is not allowed`);
    Object.assign(this, { type, name, help, labelNames });
    this.series = new Map(); // label pairs -> cell, in the order first asked for
  }

  /** The series of these label values (one per label name), made on first use. */
  cell(...values) {
    if (values.length !== this.labelNames.length) throw new Error(`${this.name}: ${this.labelNames.length} label values expected, got ${values.length}`);
    const labels = labelPairs(this.labelNames, values);
    let cell = this.series.get(labels);
    if (cell === undefined) {
      cell = this.newCell(labels);
      this.series.set(labels, cell);
    }
    return cell;
  }

  newCell(labels) {
    return { labels, value: 0 };
  }
}

class HistogramCell {
  constructor(labels, bounds) {
    this.labels = labels;
    this.bounds = bounds;
    this.counts = new Array(bounds.length + 1).fill(0);
    this.sum = 0;
    this.count = 0;
  }

  // A bucket counts the observations up to and including its bound (le).
  observe(value) {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]) i++;
    this.counts[i]++;
    this.sum += value;
    this.count++;
  }
}

class Histogram extends Family {
  constructor(name, help, labelNames, bounds) {
    super('histogram', name, help, labelNames);
    if (bounds.length === 0 || bounds.some((b, i) => !Number.isFinite(b) || (i > 0 && b <= bounds[i - 1]))) {
      throw new Error(`${name}: bucket bounds must be finite and increasing`);
    }
    this.bounds = bounds;
  }

  newCell(labels) {
    return new HistogramCell(labels, this.bounds);
  }
}

class Registry {
  constructor() {
    this.families = [];
    this.hooks = [];
  }

  add(family) {
    if (this.families.some((f) => f.name === family.name)) throw new Error(`metric "${family.name}" defined twice`);
    this.families.push(family);
    return family;
  }

  counter(name, help, labelNames = []) {
    if (!name.endsWith('_total')) throw new Error(`counter "${name}" must end in _total`);
    return this.add(new Family('counter', name, help, labelNames));
  }

  gauge(name, help, labelNames = []) {
    return this.add(new Family('gauge', name, help, labelNames));
  }

  histogram(name, help, labelNames, bounds) {
    return this.add(new Histogram(name, help, labelNames, bounds));
  }

  /** fn() runs before each render, to copy values read elsewhere into their cells. */
  onScrape(fn) {
    this.hooks.push(fn);
  }

  render() {
    for (const hook of this.hooks) hook();
    return render(this.families);
  }
}

module.exports = { Registry };
