// status: failed
// code: internal_error
// error: TypeError:
// error-contains: shipping_list
const rows = await tools.shippingList();
return rows.length;
