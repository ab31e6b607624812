package builders

import "errors"

// ErrBadAnswer marks a 2xx answer that breaks the backend's API: an object created without the id
// every later request names it by, a build status that is none. Ensure fails the build this
// apply made on it, and never adopts it on what the same server says next.
var ErrBadAnswer = errors.New("an answer that breaks the API")
