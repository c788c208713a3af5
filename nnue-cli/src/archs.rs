//! Every architecture shipped in `archs/`, compiled: what `nnue` knows
//! without building anything.

use crate::compiled;
use crate::registry::Compiled;
use nnue::nnue;

nnue!(include "sfnnv1.ron");
nnue!(include "sfnnv2.ron");
nnue!(include "sfnnv3.ron");
nnue!(include "sfnnv4.ron");
nnue!(include "sfnnv5.ron");
nnue!(include "sfnnv6.ron");
nnue!(include "sfnnv7.ron");
nnue!(include "sfnnv8.ron");
nnue!(include "sfnnv9.ron");
nnue!(include "sfnnv9-small.ron");
nnue!(include "sfnnv10.ron");
nnue!(include "sfnnv16.ron");
nnue!(include "sf19-lite.ron");
nnue!(include "bullet/obsidian.ron");
nnue!(include "bullet/akimbo.ron");
nnue!(include "bullet/reckless-v30.ron");

/// The shipped architectures by their file under `archs/` and its text.
/// Where two share a header hash (Stockfish's hash ignores layer input
/// widths: SFNNv4 and SFNNv5 nets carry the same words), the registry's
/// `load` decides; the narrower comes first.
pub static SHIPPED: &[Compiled] = &[
    compiled!(sfnnv1, "sfnnv1.ron", include_str!("../../archs/sfnnv1.ron")),
    compiled!(sfnnv2, "sfnnv2.ron", include_str!("../../archs/sfnnv2.ron")),
    compiled!(sfnnv3, "sfnnv3.ron", include_str!("../../archs/sfnnv3.ron")),
    compiled!(sfnnv4, "sfnnv4.ron", include_str!("../../archs/sfnnv4.ron")),
    compiled!(sfnnv5, "sfnnv5.ron", include_str!("../../archs/sfnnv5.ron")),
    compiled!(sfnnv6, "sfnnv6.ron", include_str!("../../archs/sfnnv6.ron")),
    compiled!(sfnnv7, "sfnnv7.ron", include_str!("../../archs/sfnnv7.ron")),
    compiled!(sfnnv8, "sfnnv8.ron", include_str!("../../archs/sfnnv8.ron")),
    compiled!(sfnnv9, "sfnnv9.ron", include_str!("../../archs/sfnnv9.ron")),
    compiled!(sfnnv9_small, "sfnnv9-small.ron", include_str!("../../archs/sfnnv9-small.ron")),
    compiled!(sfnnv10, "sfnnv10.ron", include_str!("../../archs/sfnnv10.ron")),
    compiled!(sfnnv16, "sfnnv16.ron", include_str!("../../archs/sfnnv16.ron")),
    compiled!(sf19_lite, "sf19-lite.ron", include_str!("../../archs/sf19-lite.ron")),
    compiled!(obsidian, "bullet/obsidian.ron", include_str!("../../archs/bullet/obsidian.ron")),
    compiled!(akimbo, "bullet/akimbo.ron", include_str!("../../archs/bullet/akimbo.ron")),
    compiled!(reckless_v30, "bullet/reckless-v30.ron", include_str!("../../archs/bullet/reckless-v30.ron")),
];
