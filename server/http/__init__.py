"""HTTP: routes, the error contract, request auth, OpenAPI, AsyncAPI, the pages, input checks."""
