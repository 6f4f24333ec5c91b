public import StoreKeeperWire

/// One value of a stored event's detail: the wire's scalar JSON value, so an event is stored as it is answered.
public typealias EventValue = JSONScalar
