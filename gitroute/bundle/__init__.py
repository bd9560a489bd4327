"""The bundle: the indexes as blobs in one git tree, committed under refs/marola/routing-bundle."""
