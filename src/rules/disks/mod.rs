//! Disk rules: formatting or overwriting block devices, formatting images, partition
//! tables, LVM/RAID removal, and dd to files.

pub mod block_device_write;
pub mod dd_to_file;
pub mod format_image;
pub mod partition_write;
pub mod volume_removal;
