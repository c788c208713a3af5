//! The size of the CPU's L1 data cache, and whether its prefetchers serve a
//! move's update, read once. Kernels whose faster form depends on whether
//! their data stays in L1 choose by it: the transformer's search
//! ([`crate::kernels::search_while_storing`]) and how far ahead a move's
//! update asks for its rows ([`crate::kernels::update_sets`]), if at all.

use std::sync::OnceLock;

/// Bytes of L1 data cache per core, as the CPU reports them, or `None`
/// where it does not say (or on an architecture read no further here:
/// AArch64, whose kernels do not choose by it). Inlined: a move's update
/// asks, and the call itself was 0.3 % of Stockfish 18's search with the
/// library in a profile.
#[inline]
pub fn l1_data_bytes() -> Option<usize> {
    static BYTES: OnceLock<Option<usize>> = OnceLock::new();
    *BYTES.get_or_init(detect)
}

/// Whether the L1 data cache holds at least `bytes`, or its size is not
/// known (the kernels' choices for a large L1 are the ones they had before
/// they chose by it).
#[inline]
pub fn l1_data_at_least(bytes: usize) -> bool {
    l1_data_bytes().is_none_or(|l1| l1 >= bytes)
}

/// Whether a move's update should ask for its weight rows ahead of use
/// ([`crate::kernels::update_sets`]): everywhere but on Intel's x86-64 CPUs.
/// Measured with and without those requests (which `prefetch_sets` makes
/// too, earlier, for each row's first lanes): on AMD's Zen 3, Zen 4 and
/// Zen 5 they gained (without them a Zen 5's move + eval took 1.07-1.17 of
/// the time); on an Intel Xeon (family 6 model 207, 48 KB L1) they cost
/// more instructions than the wait they hide, presumably because its own
/// prefetchers fetch a row's lines as the update reads them (see the
/// kernel). Other Intel models were not measured.
#[inline]
pub fn requests_move_rows() -> bool {
    static REQUESTS: OnceLock<bool> = OnceLock::new();
    *REQUESTS.get_or_init(|| !is_intel())
}

/// Whether the CPU is Intel's (CPUID leaf 0's vendor, "GenuineIntel").
#[cfg(target_arch = "x86_64")]
fn is_intel() -> bool {
    let leaf = core::arch::x86_64::__cpuid(0);
    [leaf.ebx, leaf.edx, leaf.ecx] == [0x756E_6547, 0x4965_6E69, 0x6C65_746E]
}

#[cfg(not(target_arch = "x86_64"))]
fn is_intel() -> bool {
    false
}

/// x86-64: CPUID leaf 4 (deterministic cache parameters: Intel's), the
/// first level-1 data cache it lists, else leaf 0x8000_0005 (AMD's: ECX
/// bits 31-24 are the L1 data cache's size in KB; zero where the leaf is
/// reserved, as on Intel).
#[cfg(target_arch = "x86_64")]
fn detect() -> Option<usize> {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    if __cpuid(0).eax >= 4 {
        for subleaf in 0..16 {
            let leaf = __cpuid_count(4, subleaf);
            let (kind, level) = (leaf.eax & 0x1F, (leaf.eax >> 5) & 0x7);
            if kind == 0 {
                break;
            }
            // Type 1 is a data cache, 3 a unified one.
            if level == 1 && (kind == 1 || kind == 3) {
                let ways = (leaf.ebx >> 22) as usize + 1;
                let partitions = ((leaf.ebx >> 12) & 0x3FF) as usize + 1;
                let line = (leaf.ebx & 0xFFF) as usize + 1;
                let sets = leaf.ecx as usize + 1;
                return Some(ways * partitions * line * sets);
            }
        }
    }
    if __cpuid(0x8000_0000).eax >= 0x8000_0005 {
        let kb = (__cpuid(0x8000_0005).ecx >> 24) as usize;
        if kb != 0 {
            return Some(kb * 1024);
        }
    }
    None
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Option<usize> {
    None
}

#[cfg(test)]
mod tests {
    /// Where the CPU reports an L1 data cache, its size is a plausible one
    /// (x86-64 cores have had 16 to 64 KB), read the same every time.
    #[test]
    fn l1_data_size_is_plausible() {
        let bytes = super::l1_data_bytes();
        eprintln!("L1 data cache: {bytes:?} bytes");
        if let Some(bytes) = bytes {
            assert!((8 * 1024..=256 * 1024).contains(&bytes), "{bytes} bytes");
            assert!(bytes.is_power_of_two() || bytes % (16 * 1024) == 0, "{bytes} bytes");
        }
        assert_eq!(super::l1_data_bytes(), bytes);
    }

    /// The vendor read from CPUID is the one Linux reports.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn intel_is_recognised() {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo");
        let vendor = cpuinfo.lines().find_map(|l| l.strip_prefix("vendor_id")).expect("a vendor_id line");
        let intel = vendor.trim_start_matches([' ', '\t', ':']) == "GenuineIntel";
        eprintln!("vendor{vendor}: requests a move's rows: {}", super::requests_move_rows());
        assert_eq!(super::is_intel(), intel);
        assert_eq!(super::requests_move_rows(), !intel);
    }
}
