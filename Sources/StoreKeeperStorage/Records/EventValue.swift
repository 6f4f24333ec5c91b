public import StoreKeeperAPI

/// One value of a stored event's detail: the API's own value type, so an event is stored as it is answered.
public typealias EventValue = EventDetailValue
