//! WASI preview 1 ABI constants and struct layouts (wasm32).

/// Import module name of WASI preview 1.
pub const MODULE: &str = "wasi_snapshot_preview1";

// Rights.
pub const RIGHT_FD_DATASYNC: u64 = 1 << 0;
pub const RIGHT_FD_READ: u64 = 1 << 1;
pub const RIGHT_FD_SEEK: u64 = 1 << 2;
pub const RIGHT_FD_FDSTAT_SET_FLAGS: u64 = 1 << 3;
pub const RIGHT_FD_SYNC: u64 = 1 << 4;
pub const RIGHT_FD_TELL: u64 = 1 << 5;
pub const RIGHT_FD_WRITE: u64 = 1 << 6;
pub const RIGHT_FD_ADVISE: u64 = 1 << 7;
pub const RIGHT_FD_ALLOCATE: u64 = 1 << 8;
pub const RIGHT_PATH_CREATE_DIRECTORY: u64 = 1 << 9;
pub const RIGHT_PATH_CREATE_FILE: u64 = 1 << 10;
pub const RIGHT_PATH_LINK_SOURCE: u64 = 1 << 11;
pub const RIGHT_PATH_LINK_TARGET: u64 = 1 << 12;
pub const RIGHT_PATH_OPEN: u64 = 1 << 13;
pub const RIGHT_FD_READDIR: u64 = 1 << 14;
pub const RIGHT_PATH_READLINK: u64 = 1 << 15;
pub const RIGHT_PATH_RENAME_SOURCE: u64 = 1 << 16;
pub const RIGHT_PATH_RENAME_TARGET: u64 = 1 << 17;
pub const RIGHT_PATH_FILESTAT_GET: u64 = 1 << 18;
pub const RIGHT_PATH_FILESTAT_SET_SIZE: u64 = 1 << 19;
pub const RIGHT_PATH_FILESTAT_SET_TIMES: u64 = 1 << 20;
pub const RIGHT_FD_FILESTAT_GET: u64 = 1 << 21;
pub const RIGHT_FD_FILESTAT_SET_SIZE: u64 = 1 << 22;
pub const RIGHT_FD_FILESTAT_SET_TIMES: u64 = 1 << 23;
pub const RIGHT_PATH_SYMLINK: u64 = 1 << 24;
pub const RIGHT_PATH_REMOVE_DIRECTORY: u64 = 1 << 25;
pub const RIGHT_PATH_UNLINK_FILE: u64 = 1 << 26;
pub const RIGHT_POLL_FD_READWRITE: u64 = 1 << 27;
/// Every right defined by preview 1.
pub const ALL_RIGHTS: u64 = (1 << 30) - 1;
/// Rights that only make sense on directories.
pub const DIR_ONLY_RIGHTS: u64 = (1 << 9)
    | (1 << 10)
    | (1 << 11)
    | (1 << 12)
    | (1 << 13)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 17)
    | (1 << 18)
    | (1 << 19)
    | (1 << 20)
    | (1 << 24)
    | (1 << 25)
    | (1 << 26);
/// Rights of a regular file descriptor.
pub const FILE_RIGHTS: u64 = ALL_RIGHTS & !DIR_ONLY_RIGHTS & !((1 << 28) | (1 << 29));
/// Rights a directory descriptor can hold: no reading, writing, seeking or resizing.
pub const DIR_BASE_RIGHTS: u64 = DIR_ONLY_RIGHTS
    | RIGHT_FD_DATASYNC
    | RIGHT_FD_SYNC
    | RIGHT_FD_FDSTAT_SET_FLAGS
    | RIGHT_FD_FILESTAT_GET
    | RIGHT_FD_FILESTAT_SET_TIMES
    | RIGHT_POLL_FD_READWRITE;
/// Rights a directory descriptor can pass on to what is opened through it.
pub const DIR_INHERITING_RIGHTS: u64 = DIR_BASE_RIGHTS | FILE_RIGHTS;
/// Rights of stdin, stdout and stderr: streams, so no seeking, telling or resizing.
pub const STDIO_RIGHTS: u64 = FILE_RIGHTS
    & !(RIGHT_FD_SEEK
        | RIGHT_FD_TELL
        | RIGHT_FD_ALLOCATE
        | RIGHT_FD_ADVISE
        | RIGHT_FD_FILESTAT_SET_SIZE);

// File types.
pub const FILETYPE_UNKNOWN: u8 = 0;
pub const FILETYPE_DIRECTORY: u8 = 3;
pub const FILETYPE_REGULAR_FILE: u8 = 4;
pub const FILETYPE_SYMBOLIC_LINK: u8 = 7;

// fdflags.
pub const FDFLAG_APPEND: u16 = 1;
pub const FDFLAGS_KNOWN: u16 = 0x1f;

// oflags.
pub const OFLAG_CREAT: u16 = 1;
pub const OFLAG_DIRECTORY: u16 = 2;
pub const OFLAG_EXCL: u16 = 4;
pub const OFLAG_TRUNC: u16 = 8;

// lookupflags.
pub const LOOKUP_SYMLINK_FOLLOW: u32 = 1;

// fstflags.
pub const FST_ATIM: u16 = 1;
pub const FST_ATIM_NOW: u16 = 2;
pub const FST_MTIM: u16 = 4;
pub const FST_MTIM_NOW: u16 = 8;

// whence.
pub const WHENCE_SET: u8 = 0;
pub const WHENCE_CUR: u8 = 1;
pub const WHENCE_END: u8 = 2;

// clock ids.
pub const CLOCK_REALTIME: u32 = 0;
pub const CLOCK_MONOTONIC: u32 = 1;
pub const CLOCK_PROCESS_CPUTIME: u32 = 2;
pub const CLOCK_THREAD_CPUTIME: u32 = 3;

// poll_oneoff.
pub const EVENTTYPE_CLOCK: u8 = 0;
pub const EVENTTYPE_FD_READ: u8 = 1;
pub const EVENTTYPE_FD_WRITE: u8 = 2;
pub const SUBCLOCK_ABSTIME: u16 = 1;
/// Bytes of one `subscription` record `poll_oneoff` reads.
pub const SUBSCRIPTION_SIZE: u32 = 48;
pub const EVENT_SIZE: u32 = 32;

// Struct sizes.
pub const FDSTAT_SIZE: u32 = 24;
pub const FILESTAT_SIZE: u32 = 64;
pub const DIRENT_HEADER_SIZE: usize = 24;

/// Device id reported for every node of the virtual directory.
pub const VFS_DEVICE: u64 = 1;
/// Most iovecs one read or write call may pass (POSIX `IOV_MAX`).
pub const MAX_IOVECS: u32 = 1024;
/// Most subscriptions one `poll_oneoff` may pass.
pub const MAX_SUBSCRIPTIONS: u32 = 1024;

/// Every function koth provides under `wasi_snapshot_preview1` (all of preview 1).
pub const FUNCTIONS: &[&str] = &[
    "args_get",
    "args_sizes_get",
    "environ_get",
    "environ_sizes_get",
    "clock_res_get",
    "clock_time_get",
    "fd_advise",
    "fd_allocate",
    "fd_close",
    "fd_datasync",
    "fd_fdstat_get",
    "fd_fdstat_set_flags",
    "fd_fdstat_set_rights",
    "fd_filestat_get",
    "fd_filestat_set_size",
    "fd_filestat_set_times",
    "fd_pread",
    "fd_prestat_get",
    "fd_prestat_dir_name",
    "fd_pwrite",
    "fd_read",
    "fd_readdir",
    "fd_renumber",
    "fd_seek",
    "fd_sync",
    "fd_tell",
    "fd_write",
    "path_create_directory",
    "path_filestat_get",
    "path_filestat_set_times",
    "path_link",
    "path_open",
    "path_readlink",
    "path_remove_directory",
    "path_rename",
    "path_symlink",
    "path_unlink_file",
    "poll_oneoff",
    "proc_exit",
    "proc_raise",
    "sched_yield",
    "random_get",
    "sock_accept",
    "sock_recv",
    "sock_send",
    "sock_shutdown",
];
