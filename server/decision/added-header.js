'use strict';
// A header the server adds to responses decided elsewhere (--cors's Access-Control-Allow-Origin,
// HTTP/3's Alt-Svc), unless a header rule of the site set it. Decorated copies are kept by the
// object they copy (a descriptor, its headers, its h2 fields): the core's prebuilt descriptors
// are shared by every response of a representation, and so are their copies, which the
// engines' caches of serialised heads are keyed by.

// (d) => d with `name: value`, one copy per descriptor.
function headerAdder(name, value) {
  const copies = new WeakMap();
  const copyOf = (object, make) => {
    let copy = copies.get(object);
    if (copy === undefined) {
      copy = make();
      copies.set(object, copy);
    }
    return copy;
  };
  return (d) => {
    if (d.headers[name] !== undefined) return d;
    return copyOf(d, () => {
      const headers = copyOf(d.headers, () => ({ ...d.headers, [name]: value }));
      const h2 = d.h2 === null ? null : copyOf(d.h2, () => ({ ...d.h2, [name]: value }));
      return { ...d, headers, h2 };
    });
  };
}

module.exports = { headerAdder };
