"""One module per page type; each view is `view(app, request, **route_params) -> Response`."""
