// status: completed
// value-contains: {"id":"SHP-101","paid":true,"tons":4}
// value-contains: {"id":"SHP-112","paid":false,"tons":6}
return await tools.shipping_list();
