// status: failed
// code: internal_error
// error: TypeError:
// error-contains: list
// error-contains: markPaid
const shipments = await Shipping.getShipments();
return shipments.filter(s => !s.paid);
