// Before the first paint (index.html, render-blocking and tiny): a page opened from a shared
// link (`#v1.…`) shows another view than the built-in example, so the skeleton hides the
// example's image (app/first-paint.css) until the app draws the link's chart.
if (location.hash.length > 1) document.documentElement.classList.add('has-link');
