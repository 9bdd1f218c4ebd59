//! Disk rules: formatting or overwriting block devices.

pub mod block_device_write;
