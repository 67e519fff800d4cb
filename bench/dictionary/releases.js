'use strict';
// The library releases `npm run bench:dictionary` measures: for each, two consecutive releases
// of a widely used package and the file of it a page loads. The older release is the
// dictionary the browser holds, the newer one the file it asks for next.
const RELEASES = Object.freeze([
  { name: 'react-dom', pkg: 'react-dom', from: '18.2.0', to: '18.3.0', file: 'umd/react-dom.production.min.js' },
  { name: 'vue', pkg: 'vue', from: '3.5.43', to: '3.5.44', file: 'dist/vue.global.prod.js' },
  { name: 'lodash', pkg: 'lodash', from: '4.17.20', to: '4.17.21', file: 'lodash.min.js' },
  { name: 'jquery', pkg: 'jquery', from: '3.6.4', to: '3.7.0', file: 'dist/jquery.min.js' },
  { name: 'three', pkg: 'three', from: '0.178.0', to: '0.179.0', file: 'build/three.module.min.js' },
]);

module.exports = { RELEASES };
