public import StoreKeeperWire

/// One value of an event's detail: a string, an integer or a boolean, answered as that JSON type (a count is `2`,
/// not `"2"`). The wire module's scalar, so storage keeps it without knowing the API.
public typealias EventDetailValue = JSONScalar
