// Builds DOM nodes from data without innerHTML, so text that comes from the server
// (reasons, header values) is always inserted as text, never parsed as markup.

/**
 * @param {string} tag
 * @param {Record<string, unknown>} [props] attributes; `class`, `text`, `dataset` handled specially
 * @param {...(Node|string|null|undefined|false)} children
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name === 'class') node.className = String(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child == null || child === false) continue;
    node.append(child);
  }
  return node;
}

/** Replaces all children of `parent`. */
export function fill(parent, ...children) {
  parent.replaceChildren(...children.filter((c) => c != null && c !== false));
}

/** Sets a section's data-state and its status line (`#<section id>-status`), red for errors. */
export function setSectionState(section, state, message = '') {
  section.dataset.state = state;
  const status = section.querySelector(`#${section.id}-status`);
  status.textContent = message;
  status.classList.toggle('error', state === 'error');
}
