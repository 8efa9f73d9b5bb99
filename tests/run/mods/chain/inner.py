# fails while its package imports it
VALUE = 1 // 0
