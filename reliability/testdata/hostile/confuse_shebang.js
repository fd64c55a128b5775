// status: failed
// code: invalid_input
#!/bin/sh
echo hi
