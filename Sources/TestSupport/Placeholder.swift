enum _PlaceholderTestSupport {}
