//! The integer kernels of the quantised network, with SIMD versions chosen at run time.
//!
//! Every kernel has a portable version in plain Rust and, on x86-64, AVX2 and AVX-512 versions
//! (`std::arch`, detected once with `is_x86_feature_detected!`). All of them compute exactly the
//! same integers (wrapping i16 sums in the accumulator, exact i32 sums in the layers: the
//! quantisation bounds keep every intermediate in range), so scores, node counts and `Bench:`
//! signatures do not depend on the CPU. `tests` check each available kernel against the
//! portable one.
//!
//! Shapes are the quantised network's padded ones: accumulator rows are a multiple of
//! [`ROW_ALIGN`] values, layer inputs a multiple of 4 and outputs a multiple of 8.
#![allow(unsafe_code)]

/// Accumulator rows are padded to a multiple of this many i16 values (one AVX-512 register).
pub const ROW_ALIGN: usize = 32;
/// Layer inputs are padded to a multiple of this (one i32 of four u8 activations).
pub const IN_ALIGN: usize = 4;
/// Layer outputs are padded to a multiple of this (one AVX-512 register, two AVX2 registers of
/// i32 sums).
pub const OUT_ALIGN: usize = 16;

/// Which implementation of the kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Plain Rust (any CPU).
    Portable,
    /// AVX2 (x86-64).
    Avx2,
    /// AVX-512 (BW, VL and VNNI; x86-64).
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512vnni")
            {
                return Kernel::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }

    /// Every kernel this CPU runs, the portable one first.
    pub fn available() -> Vec<Kernel> {
        let best = Kernel::detect();
        [Kernel::Portable, Kernel::Avx2, Kernel::Avx512]
            .into_iter()
            .filter(|k| {
                matches!(
                    (k, best),
                    (Kernel::Portable, _)
                        | (Kernel::Avx2, Kernel::Avx2 | Kernel::Avx512)
                        | (Kernel::Avx512, Kernel::Avx512)
                )
            })
            .collect()
    }

    /// Its name, as `fanorona bench` prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
        }
    }
}

/// Runs `f` compiled for `kernel`'s instruction set (`f` is inlined into a function with the
/// kernel's target features, so its loops vectorise for the wider registers; the same code runs
/// everywhere, so results do not change).
#[inline]
pub fn dispatch<R>(kernel: Kernel, f: impl FnOnce() -> R) -> R {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel is chosen only when the CPU has its features (Kernel::detect).
        Kernel::Avx2 => unsafe { x86::run_avx2(f) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Kernel::Avx512 => unsafe { x86::run_avx512(f) },
        _ => f(),
    }
}

/// The rows of one accumulator update: `dst = src + row(add) - row(sub[0]) - row(sub[1]) ...`.
#[derive(Clone, Copy, Debug)]
pub struct RowDelta<'a> {
    /// The row added (the moved stone's new point).
    pub add: u16,
    /// The rows taken away (its old point, the captured stones).
    pub sub: &'a [u16],
}

/// `dst = src + weights[add] - sum of weights[sub]` over rows of `dst.len()` values, wrapping.
/// Rows out of range (a caller bug) leave `dst` as a copy of `src`.
#[inline]
pub fn update_row(kernel: Kernel, weights: &[i16], src: &[i16], dst: &mut [i16], delta: RowDelta<'_>) {
    let width = dst.len();
    let rows = weights.len() / width.max(1);
    if src.len() != width
        || usize::from(delta.add) >= rows
        || delta.sub.iter().any(|&r| usize::from(r) >= rows)
    {
        dst.copy_from_slice(&src[..width.min(src.len())]);
        return;
    }
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if width.is_multiple_of(16) => {
            // SAFETY: the kernel is chosen only when the CPU has AVX2 (Kernel::detect); the
            // lengths and row indices were checked above.
            unsafe { x86::update_row_avx2(weights, src, dst, delta) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 if width.is_multiple_of(32) => {
            // SAFETY: as above, with AVX-512 BW.
            unsafe { x86::update_row_avx512(weights, src, dst, delta) }
        }
        _ => update_row_portable(weights, src, dst, delta),
    }
}

fn update_row_portable(weights: &[i16], src: &[i16], dst: &mut [i16], delta: RowDelta<'_>) {
    let width = dst.len();
    let row = |r: u16| &weights[usize::from(r) * width..][..width];
    for ((d, &s), &a) in dst.iter_mut().zip(src).zip(row(delta.add)) {
        *d = s.wrapping_add(a);
    }
    for &r in delta.sub {
        for (d, &w) in dst.iter_mut().zip(row(r)) {
            *d = d.wrapping_sub(w);
        }
    }
}

/// `out = bias + input . weights` for a layer of `bias.len()` outputs over `input.len()` u8
/// inputs, weights in the blocked layout of [`block_weights`]. Only the groups of four inputs
/// listed in `groups` (the ones not all zero, see [`nonzero_groups`]) are summed; activations
/// are at most 127, so no intermediate saturates.
#[inline]
pub fn affine(kernel: Kernel, input: &[u8], groups: &[u16], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    let n_out = bias.len();
    let n_groups = input.len() / IN_ALIGN;
    let ok = out.len() == n_out
        && n_out.is_multiple_of(OUT_ALIGN)
        && input.len().is_multiple_of(IN_ALIGN)
        && weights.len() == n_out * input.len()
        && groups.iter().all(|&g| usize::from(g) < n_groups);
    if !ok {
        out.iter_mut().for_each(|o| *o = 0);
        return;
    }
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // SAFETY: AVX2 is present (Kernel::detect); shapes and group indices checked above.
            unsafe { x86::affine_avx2(input, groups, weights, bias, out) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            // SAFETY: AVX-512 VNNI and VL are present (Kernel::detect); shapes checked above.
            unsafe { x86::affine_avx512(input, groups, weights, bias, out) }
        }
        _ => affine_portable(input, groups, weights, bias, out),
    }
}

fn affine_portable(input: &[u8], groups: &[u16], weights: &[i8], bias: &[i32], out: &mut [i32]) {
    const BLOCK: usize = OUT_ALIGN * IN_ALIGN;
    let n_groups = input.len() / IN_ALIGN;
    for (block, (sums_out, bias)) in
        out.chunks_exact_mut(OUT_ALIGN).zip(bias.chunks_exact(OUT_ALIGN)).enumerate()
    {
        let mut sums = [0i32; OUT_ALIGN];
        for &g in groups {
            let g = usize::from(g);
            let x = &input[g * IN_ALIGN..(g + 1) * IN_ALIGN];
            let base = (block * n_groups + g) * BLOCK;
            let Ok(w) = <&[i8; BLOCK]>::try_from(&weights[base..base + BLOCK]) else { continue };
            for (o, sum) in sums.iter_mut().enumerate() {
                for k in 0..IN_ALIGN {
                    *sum += i32::from(x[k]) * i32::from(w[o * IN_ALIGN + k]);
                }
            }
        }
        for ((o, s), b) in sums_out.iter_mut().zip(sums).zip(bias) {
            *o = b + s;
        }
    }
}

/// First-layer rows added to and taken from an accumulator just before its activation,
/// without being kept in it (the threat inputs of [`crate::Encoding::ThreatPlanes`], and the
/// last move of a position whose own accumulator was never stored): rows `rows` of `weights`
/// added, rows `sub` taken away, each as wide as the accumulator.
#[derive(Clone, Copy, Debug)]
pub struct ExtraRows<'a> {
    /// The first layer's weights, row-major.
    pub weights: &'a [i16],
    /// The rows added.
    pub rows: &'a [u16],
    /// The rows taken away.
    pub sub: &'a [u16],
}

impl ExtraRows<'static> {
    /// No rows.
    pub const NONE: ExtraRows<'static> = ExtraRows { weights: &[], rows: &[], sub: &[] };
}

impl ExtraRows<'_> {
    /// Whether every row lies within `weights` for rows of `width` values.
    #[inline]
    fn fit(&self, width: usize) -> bool {
        self.rows.iter().chain(self.sub).all(|&r| (usize::from(r) + 1) * width <= self.weights.len())
    }
}

/// The first layer's clipped ReLU of one accumulator value: `clamp(saturating(x + 2) >> 2, 0,
/// 127)` (the accumulator holds 508 times the pre-activation, the output 127 times the
/// activation).
#[inline(always)]
fn activation(x: i16) -> u8 {
    (x.saturating_add(2) >> 2).clamp(0, 127) as u8
}

/// The first layer's clipped ReLU of `acc` plus the `extra` rows (added wrapping, as the
/// accumulator is): `out[i] = activation(acc[i] + sum of extra rows[i])`. A caller bug (lengths
/// that differ, a row beyond the weights) leaves `out` all zero.
#[inline]
pub fn ft_activate(kernel: Kernel, acc: &[i16], extra: ExtraRows<'_>, out: &mut [u8]) {
    let width = acc.len();
    if out.len() != width || !extra.fit(width) {
        out.iter_mut().for_each(|o| *o = 0);
        return;
    }
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 is present (Kernel::detect); lengths and rows checked above.
        Kernel::Avx2 if width.is_multiple_of(32) => unsafe { x86::ft_activate_avx2(acc, extra, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512 BW is present (Kernel::detect); lengths and rows checked above.
        Kernel::Avx512 if width.is_multiple_of(64) => unsafe { x86::ft_activate_avx512(acc, extra, out) },
        _ => ft_activate_portable(acc, extra, out),
    }
}

/// The summed accumulator, 32 values at a time, handed to `f` with the chunk's offset.
#[inline(always)]
fn summed_chunks(acc: &[i16], extra: ExtraRows<'_>, mut f: impl FnMut(usize, &[i16])) {
    const CHUNK: usize = 32;
    let width = acc.len();
    for (c, chunk) in acc.chunks(CHUNK).enumerate() {
        let at = c * CHUNK;
        let mut v = [0i16; CHUNK];
        let v = &mut v[..chunk.len()];
        v.copy_from_slice(chunk);
        let len = v.len();
        let row = |r: u16| &extra.weights[usize::from(r) * width + at..][..len];
        for &r in extra.rows {
            for (x, &w) in v.iter_mut().zip(row(r)) {
                *x = x.wrapping_add(w);
            }
        }
        for &r in extra.sub {
            for (x, &w) in v.iter_mut().zip(row(r)) {
                *x = x.wrapping_sub(w);
            }
        }
        f(at, v);
    }
}

fn ft_activate_portable(acc: &[i16], extra: ExtraRows<'_>, out: &mut [u8]) {
    summed_chunks(acc, extra, |at, v| {
        for (y, &x) in out[at..at + v.len()].iter_mut().zip(v) {
            *y = activation(x);
        }
    });
}

/// The output of a network with no hidden layer after the first, without its bias: `sum of
/// activation(acc[i] + extra rows[i]) * weights[i]` (exact in i32: at most 127 x 32767 per
/// input). The activations are never stored. A caller bug (lengths that differ, a row beyond
/// the weights) gives 0.
#[inline]
pub fn ft_dot(kernel: Kernel, acc: &[i16], extra: ExtraRows<'_>, weights: &[i16]) -> i32 {
    let width = acc.len();
    if weights.len() != width || !extra.fit(width) {
        return 0;
    }
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX2 is present (Kernel::detect); lengths and rows checked above.
        Kernel::Avx2 if width.is_multiple_of(16) => unsafe { x86::ft_dot_avx2(acc, extra, weights) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512 BW is present (Kernel::detect); lengths and rows checked above.
        Kernel::Avx512 if width.is_multiple_of(32) => unsafe { x86::ft_dot_avx512(acc, extra, weights) },
        _ => ft_dot_portable(acc, extra, weights),
    }
}

fn ft_dot_portable(acc: &[i16], extra: ExtraRows<'_>, weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    summed_chunks(acc, extra, |at, v| {
        sum +=
            v.iter().zip(&weights[at..]).map(|(&x, &w)| i32::from(activation(x)) * i32::from(w)).sum::<i32>();
    });
    sum
}

/// Writes into `groups` the indices, ascending, of the groups of four inputs that are not all
/// zero and returns how many there are (`groups` holds at least `input.len() / 4`; the list is
/// the same for every kernel).
#[inline]
pub fn nonzero_groups(kernel: Kernel, input: &[u8], groups: &mut [u16]) -> usize {
    let count = (input.len() / IN_ALIGN).min(groups.len());
    let mut n = 0;
    for (window, chunk) in input[..count * IN_ALIGN].chunks(64 * IN_ALIGN).enumerate() {
        let mut mask = nonzero_mask(kernel, chunk);
        while mask != 0 {
            groups[n] = (window * 64 + mask.trailing_zeros() as usize) as u16;
            n += 1;
            mask &= mask - 1;
        }
    }
    n
}

/// Bit `g` set when group `g` of `chunk` (at most 64 groups) is not all zero.
#[inline]
fn nonzero_mask(kernel: Kernel, chunk: &[u8]) -> u64 {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 if chunk.len() == 64 * IN_ALIGN => {
            // SAFETY: AVX-512 F is present (Kernel::detect); the chunk holds 256 bytes.
            unsafe { x86::nonzero_mask_avx512(chunk) }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if chunk.len() == 64 * IN_ALIGN => {
            // SAFETY: AVX2 is present; the chunk holds 256 bytes.
            unsafe { x86::nonzero_mask_avx2(chunk) }
        }
        _ => chunk
            .chunks_exact(IN_ALIGN)
            .enumerate()
            .fold(0u64, |m, (g, c)| m | (u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]]) != 0) << g)),
    }
}

/// The weights `w[i][o]` (input-major, `n_in` x `n_out`, both padded) in the blocked layout the
/// kernels read: for each block of 16 outputs, for each group of 4 inputs, the 4 weights of
/// output 0, then of output 1, ... (64 bytes: one AVX-512 register).
pub fn block_weights(w: &[i8], n_in: usize, n_out: usize) -> Vec<i8> {
    let groups = n_in / IN_ALIGN;
    let mut out = vec![0i8; n_in * n_out];
    for block in 0..n_out / OUT_ALIGN {
        for g in 0..groups {
            for o in 0..OUT_ALIGN {
                for k in 0..IN_ALIGN {
                    let (i, j) = (g * IN_ALIGN + k, block * OUT_ALIGN + o);
                    out[((block * groups + g) * OUT_ALIGN + o) * IN_ALIGN + k] = w[i * n_out + j];
                }
            }
        }
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{IN_ALIGN, OUT_ALIGN, RowDelta};

    /// Registers of one tile of [`update_row_avx2`] / [`update_row_avx512`]: the tile's sums
    /// stay in registers while every row is added or taken away, so the loop over rows runs
    /// once per tile instead of once per register (a 256-wide row is 2 AVX2 tiles or one
    /// AVX-512 tile).
    const TILE: usize = 8;

    /// One accumulator-update kernel per instruction set: `$lanes` i16 values a register of
    /// type `$reg`, whole tiles of [`TILE`] registers first, then the rest one register at a
    /// time.
    macro_rules! update_row_kernel {
        ($(#[$doc:meta])* $name:ident, $features:literal, $reg:ty, $lanes:literal,
         $load:ident, $store:ident, $add:ident, $sub:ident) => {
            $(#[$doc])*
            #[target_feature(enable = $features)]
            pub(super) unsafe fn $name(weights: &[i16], src: &[i16], dst: &mut [i16], delta: RowDelta<'_>) {
                const LANES: usize = $lanes;
                let width = dst.len();
                let w = weights.as_ptr();
                let full = width / (LANES * TILE) * (LANES * TILE);
                for c in (0..full).step_by(LANES * TILE) {
                    // SAFETY: c + LANES * TILE <= width, and each row r spans r * width ..
                    // (r + 1) * width within `weights` (checked by the caller).
                    unsafe {
                        let load = |p: *const i16, k: usize| $load(p.add(c + k * LANES).cast());
                        let row = |r: u16| w.add(usize::from(r) * width);
                        let mut v: [$reg; TILE] =
                            core::array::from_fn(|k| $add(load(src.as_ptr(), k), load(row(delta.add), k)));
                        for &r in delta.sub {
                            for (k, x) in v.iter_mut().enumerate() {
                                *x = $sub(*x, load(row(r), k));
                            }
                        }
                        for (k, x) in v.iter().enumerate() {
                            $store(dst.as_mut_ptr().add(c + k * LANES).cast(), *x);
                        }
                    }
                }
                for c in (full..width).step_by(LANES) {
                    // SAFETY: as above, one register at a time.
                    unsafe {
                        let mut v = $load(src.as_ptr().add(c).cast());
                        v = $add(v, $load(w.add(usize::from(delta.add) * width + c).cast()));
                        for &r in delta.sub {
                            v = $sub(v, $load(w.add(usize::from(r) * width + c).cast()));
                        }
                        $store(dst.as_mut_ptr().add(c).cast(), v);
                    }
                }
            }
        };
    }

    update_row_kernel!(
        /// # Safety
        /// The CPU has AVX2; `src`, `dst` have the same length, a multiple of 16; every row
        /// index of `delta` is below `weights.len() / dst.len()`.
        update_row_avx2, "avx2", __m256i, 16,
        _mm256_loadu_si256, _mm256_storeu_si256, _mm256_add_epi16, _mm256_sub_epi16
    );

    update_row_kernel!(
        /// # Safety
        /// As [`update_row_avx2`], with AVX-512 BW and a width that is a multiple of 32.
        update_row_avx512, "avx512f,avx512bw", __m512i, 32,
        _mm512_loadu_si512, _mm512_storeu_si512, _mm512_add_epi16, _mm512_sub_epi16
    );

    /// The first-layer kernels for one instruction set, `$lanes` i16 values a register of type
    /// `$reg`: each register of the accumulator is loaded once, the extra rows are added to it,
    /// and it is activated in registers (never stored as i16).
    macro_rules! first_layer_kernels {
        ($features:literal, $reg:ty, $lanes:literal, $dot:ident, $act:ident, $pack:ident, $reduce:ident,
         $load:ident, $store:ident, $add:ident, $sub:ident, $adds:ident, $srai:ident, $max:ident, $min:ident,
         $madd:ident, $add32:ident, $set1:ident, $zero:ident) => {
            /// The activated register of the accumulator at `c`, the extra rows added.
            ///
            /// # Safety
            /// The CPU has the features; `c + LANES <= acc.len()`, and every extra row fits.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn activated(acc: &[i16], extra: ExtraRows<'_>, c: usize) -> $reg {
                let width = acc.len();
                // SAFETY: the caller's bounds.
                unsafe {
                    let mut v = $load(acc.as_ptr().add(c).cast());
                    let row = |r: u16| $load(extra.weights.as_ptr().add(usize::from(r) * width + c).cast());
                    for &r in extra.rows {
                        v = $add(v, row(r));
                    }
                    for &r in extra.sub {
                        v = $sub(v, row(r));
                    }
                    clipped(v)
                }
            }

            /// The clipped ReLU of a register of summed accumulator values.
            #[target_feature(enable = $features)]
            #[inline]
            fn clipped(v: $reg) -> $reg {
                $min($max($srai::<2>($adds(v, $set1(2))), $zero()), $set1(127))
            }

            /// Whole tiles of [`TILE`] registers first (the loops over the extra rows run once
            /// per tile, not once per register), then the rest one register at a time. The
            /// sums are exact in i32, so their order does not change the result.
            ///
            /// # Safety
            /// The CPU has the features; `weights.len() == acc.len()`, a multiple of the lanes;
            /// every extra row fits.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn $dot(acc: &[i16], extra: ExtraRows<'_>, weights: &[i16]) -> i32 {
                const LANES: usize = $lanes;
                let width = acc.len();
                let full = width / (LANES * TILE) * (LANES * TILE);
                let mut sums = [$zero(); 2];
                for c in (0..full).step_by(LANES * TILE) {
                    // SAFETY: c + LANES * TILE <= width = weights.len(), and every extra row
                    // spans r * width .. (r + 1) * width within the weights (the caller's check).
                    unsafe {
                        let load = |p: *const i16, k: usize| $load(p.add(c + k * LANES).cast());
                        let row = |r: u16| extra.weights.as_ptr().add(usize::from(r) * width);
                        let mut v: [$reg; TILE] = core::array::from_fn(|k| load(acc.as_ptr(), k));
                        for &r in extra.rows {
                            for (k, x) in v.iter_mut().enumerate() {
                                *x = $add(*x, load(row(r), k));
                            }
                        }
                        for &r in extra.sub {
                            for (k, x) in v.iter_mut().enumerate() {
                                *x = $sub(*x, load(row(r), k));
                            }
                        }
                        for (k, x) in v.iter().enumerate() {
                            sums[k % 2] = $add32(sums[k % 2], $madd(clipped(*x), load(weights.as_ptr(), k)));
                        }
                    }
                }
                for (k, c) in (full..width).step_by(LANES).enumerate() {
                    // SAFETY: c + LANES <= acc.len() = weights.len(); the rows fit.
                    unsafe {
                        let a = activated(acc, extra, c);
                        let w = $load(weights.as_ptr().add(c).cast());
                        sums[k % 2] = $add32(sums[k % 2], $madd(a, w));
                    }
                }
                $reduce($add32(sums[0], sums[1]))
            }

            /// # Safety
            /// The CPU has the features; `out.len() == acc.len()`, a multiple of twice the
            /// lanes; every extra row fits.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn $act(acc: &[i16], extra: ExtraRows<'_>, out: &mut [u8]) {
                for c in (0..acc.len()).step_by(2 * $lanes) {
                    // SAFETY: c + 2 * LANES <= acc.len() = out.len(); the rows fit.
                    unsafe {
                        let (a, b) = (activated(acc, extra, c), activated(acc, extra, c + $lanes));
                        $store(out.as_mut_ptr().add(c).cast(), $pack(a, b));
                    }
                }
            }
        };
    }

    /// The bytes of `a` then of `b` (each value in 0..=127).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn pack_avx2(a: __m256i, b: __m256i) -> __m256i {
        // packus interleaves the 128-bit lanes: a0 b0 a1 b1; put them back in order.
        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b))
    }

    /// The bytes of `a` then of `b` (each value in 0..=127).
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    fn pack_avx512(a: __m512i, b: __m512i) -> __m512i {
        // packus interleaves the 128-bit lanes: a0 b0 a1 b1 a2 b2 a3 b3; put them back in order.
        _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), _mm512_packus_epi16(a, b))
    }

    /// The sum of the eight i32 lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn reduce_avx2(v: __m256i) -> i32 {
        let x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
        let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
        _mm_cvtsi128_si32(x)
    }

    /// The sum of the sixteen i32 lanes.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn reduce_avx512(v: __m512i) -> i32 {
        _mm512_reduce_add_epi32(v)
    }

    mod avx2 {
        use super::super::ExtraRows;
        use super::*;
        first_layer_kernels!(
            "avx2",
            __m256i,
            16,
            ft_dot_avx2,
            ft_activate_avx2,
            pack_avx2,
            reduce_avx2,
            _mm256_loadu_si256,
            _mm256_storeu_si256,
            _mm256_add_epi16,
            _mm256_sub_epi16,
            _mm256_adds_epi16,
            _mm256_srai_epi16,
            _mm256_max_epi16,
            _mm256_min_epi16,
            _mm256_madd_epi16,
            _mm256_add_epi32,
            _mm256_set1_epi16,
            _mm256_setzero_si256
        );
    }

    mod avx512 {
        use super::super::ExtraRows;
        use super::*;
        first_layer_kernels!(
            "avx512f,avx512bw",
            __m512i,
            32,
            ft_dot_avx512,
            ft_activate_avx512,
            pack_avx512,
            reduce_avx512,
            _mm512_loadu_si512,
            _mm512_storeu_si512,
            _mm512_add_epi16,
            _mm512_sub_epi16,
            _mm512_adds_epi16,
            _mm512_srai_epi16,
            _mm512_max_epi16,
            _mm512_min_epi16,
            _mm512_madd_epi16,
            _mm512_add_epi32,
            _mm512_set1_epi16,
            _mm512_setzero_si512
        );
    }

    pub(super) use avx2::{ft_activate_avx2, ft_dot_avx2};
    pub(super) use avx512::{ft_activate_avx512, ft_dot_avx512};

    /// # Safety
    /// The CPU has AVX-512 F; `chunk` holds 256 bytes.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn nonzero_mask_avx512(chunk: &[u8]) -> u64 {
        let mut mask = 0u64;
        for q in 0..4 {
            // SAFETY: 64 * (q + 1) <= 256 = chunk.len().
            let v = unsafe { _mm512_loadu_si512(chunk.as_ptr().add(64 * q).cast()) };
            mask |= u64::from(_mm512_test_epi32_mask(v, v)) << (16 * q);
        }
        mask
    }

    /// # Safety
    /// The CPU has AVX2; `chunk` holds 256 bytes.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn nonzero_mask_avx2(chunk: &[u8]) -> u64 {
        let zero = _mm256_setzero_si256();
        let mut mask = 0u64;
        for q in 0..8 {
            // SAFETY: 32 * (q + 1) <= 256 = chunk.len().
            let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().add(32 * q).cast()) };
            let is_zero = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero))) as u32;
            mask |= u64::from(!is_zero & 0xff) << (8 * q);
        }
        mask
    }

    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn run_avx2<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    /// # Safety
    /// The CPU has AVX-512 F, BW, VL and VNNI.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl,avx512vnni")]
    pub(super) unsafe fn run_avx512<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    /// The four inputs of group `g` as one i32.
    #[inline(always)]
    fn group(input: &[u8], g: usize) -> i32 {
        let x = &input[g * IN_ALIGN..(g + 1) * IN_ALIGN];
        i32::from_le_bytes([x[0], x[1], x[2], x[3]])
    }

    /// Bytes of one block of weights for one group (16 outputs x 4 inputs).
    const BLOCK_BYTES: usize = OUT_ALIGN * IN_ALIGN;

    /// # Safety
    /// The CPU has AVX2; shapes as checked by `super::affine`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn affine_avx2(
        input: &[u8],
        groups: &[u16],
        weights: &[i8],
        bias: &[i32],
        out: &mut [i32],
    ) {
        let n_groups = input.len() / IN_ALIGN;
        let ones = _mm256_set1_epi16(1);
        let w = weights.as_ptr();
        for block in 0..bias.len() / OUT_ALIGN {
            let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for &g in groups {
                let g = usize::from(g);
                let x = _mm256_set1_epi32(group(input, g));
                let base = (block * n_groups + g) * BLOCK_BYTES;
                // SAFETY: base + 64 <= weights.len() = blocks * n_groups * 64 (checked by the
                // caller: g < n_groups). maddubs pair sums are at most 2 * 127 * 128: no
                // saturation, so the sums equal the portable ones.
                unsafe {
                    let w0 = _mm256_loadu_si256(w.add(base).cast());
                    let w1 = _mm256_loadu_si256(w.add(base + 32).cast());
                    lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w0), ones));
                    hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_maddubs_epi16(x, w1), ones));
                }
            }
            let at = block * OUT_ALIGN;
            // SAFETY: at + 16 <= out.len() = bias.len().
            unsafe {
                let b = bias.as_ptr().add(at);
                let o = out.as_mut_ptr().add(at);
                _mm256_storeu_si256(o.cast(), _mm256_add_epi32(lo, _mm256_loadu_si256(b.cast())));
                _mm256_storeu_si256(
                    o.add(8).cast(),
                    _mm256_add_epi32(hi, _mm256_loadu_si256(b.add(8).cast())),
                );
            }
        }
    }

    /// # Safety
    /// The CPU has AVX-512 F, BW and VNNI; shapes as checked by `super::affine`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(super) unsafe fn affine_avx512(
        input: &[u8],
        groups: &[u16],
        weights: &[i8],
        bias: &[i32],
        out: &mut [i32],
    ) {
        let n_groups = input.len() / IN_ALIGN;
        let n_blocks = bias.len() / OUT_ALIGN;
        let w = weights.as_ptr();
        // One block (16 outputs) at a time, the groups spread over four accumulators so that
        // four dpbusd chains run in parallel (its latency, not its throughput, is the limit).
        for block in 0..n_blocks {
            let mut acc = [_mm512_setzero_si512(); 4];
            let base = block * n_groups * BLOCK_BYTES;
            for quad in groups.chunks(4) {
                for (a, &g) in acc.iter_mut().zip(quad) {
                    let g = usize::from(g);
                    let x = _mm512_set1_epi32(group(input, g));
                    // SAFETY: base + (g + 1) * 64 <= weights.len() (g < n_groups, block <
                    // n_blocks, checked by the caller); dpbusd sums exactly in i32.
                    unsafe {
                        *a = _mm512_dpbusd_epi32(
                            *a,
                            x,
                            _mm512_loadu_si512(w.add(base + g * BLOCK_BYTES).cast()),
                        )
                    };
                }
            }
            let sums = _mm512_add_epi32(_mm512_add_epi32(acc[0], acc[1]), _mm512_add_epi32(acc[2], acc[3]));
            // SAFETY: (block + 1) * 16 <= out.len() = bias.len().
            unsafe { store512(out, bias, block, sums) };
        }
    }

    /// `out[block] = bias[block] + sums`.
    ///
    /// # Safety
    /// AVX-512 F; `(block + 1) * 16 <= out.len() == bias.len()`.
    #[inline(always)]
    unsafe fn store512(out: &mut [i32], bias: &[i32], block: usize, sums: __m512i) {
        let at = block * OUT_ALIGN;
        // SAFETY: the caller's bounds.
        unsafe {
            let b = _mm512_loadu_si512(bias.as_ptr().add(at).cast());
            _mm512_storeu_si512(out.as_mut_ptr().add(at).cast(), _mm512_add_epi32(sums, b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Rng;

    /// The SIMD kernels this CPU runs, to compare with the portable one in `test`. Each is
    /// named (`cargo test -- --nocapture` shows them), and each the CPU lacks is reported as
    /// skipped: a pass says which comparisons ran, never the portable kernel against itself.
    fn simd_kernels(test: &str) -> Vec<Kernel> {
        let available = Kernel::available();
        [Kernel::Avx2, Kernel::Avx512]
            .into_iter()
            .filter(|k| {
                let on = available.contains(k);
                if on {
                    println!("{test}: compared the {} kernel with the portable one", k.name());
                } else {
                    println!("SKIPPED: {} not available on this CPU ({test} did not compare it)", k.name());
                }
                on
            })
            .collect()
    }

    fn random_i16(rng: &mut Rng, n: usize, bound: i64) -> Vec<i16> {
        (0..n).map(|_| (rng.below(2 * bound as u64 + 1) as i64 - bound) as i16).collect()
    }

    #[test]
    fn every_kernel_updates_rows_like_the_portable_one() {
        let mut rng = Rng::new(7);
        let simd = simd_kernels("update_row");
        for width in [32, 64, 256] {
            let weights = random_i16(&mut rng, 90 * width, 30_000);
            let src = random_i16(&mut rng, width, 30_000);
            let sub = [3, 17, 89, 45];
            let delta = RowDelta { add: 60, sub: &sub };
            let mut expected = vec![0; width];
            update_row_portable(&weights, &src, &mut expected, delta);
            // Spot check by hand (wrapping arithmetic).
            let by_hand = src[5]
                .wrapping_add(weights[60 * width + 5])
                .wrapping_sub(weights[3 * width + 5])
                .wrapping_sub(weights[17 * width + 5])
                .wrapping_sub(weights[89 * width + 5])
                .wrapping_sub(weights[45 * width + 5]);
            assert_eq!(expected[5], by_hand);
            for &k in &simd {
                let mut got = vec![0; width];
                update_row(k, &weights, &src, &mut got, delta);
                assert_eq!(got, expected, "{k:?} width {width}");
            }
        }
    }

    #[test]
    fn every_kernel_computes_the_same_layer() {
        let mut rng = Rng::new(9);
        let simd = simd_kernels("nonzero_groups and affine");
        for (n_in, n_out) in [(256, 32), (32, 16), (512, 48), (4, 64), (1024, 16)] {
            let w: Vec<i8> = (0..n_in * n_out).map(|_| (rng.below(256) as i64 - 128) as i8).collect();
            let blocked = block_weights(&w, n_in, n_out);
            let bias: Vec<i32> = (0..n_out).map(|_| rng.below(20_000) as i32 - 10_000).collect();
            // Activations in 0..=127, about a third zero.
            let input: Vec<u8> =
                (0..n_in).map(|_| if rng.below(3) == 0 { 0 } else { rng.below(128) as u8 }).collect();
            let mut groups = vec![0u16; n_in / 4];
            let n = nonzero_groups(Kernel::Portable, &input, &mut groups);
            let expected_groups: Vec<u16> =
                (0..n_in / 4).filter(|&g| input[4 * g..4 * g + 4] != [0; 4]).map(|g| g as u16).collect();
            assert_eq!(&groups[..n], &expected_groups[..]);
            for &k in &simd {
                let mut other = vec![0u16; n_in / 4];
                let m = nonzero_groups(k, &input, &mut other);
                assert_eq!(&other[..m], &expected_groups[..], "{k:?}");
            }
            // The plain definition.
            let expected: Vec<i32> = (0..n_out)
                .map(|o| {
                    bias[o]
                        + (0..n_in).map(|i| i32::from(input[i]) * i32::from(w[i * n_out + o])).sum::<i32>()
                })
                .collect();
            for k in [Kernel::Portable].into_iter().chain(simd.iter().copied()) {
                let mut out = vec![0; n_out];
                affine(k, &input, &groups[..n], &blocked, &bias, &mut out);
                assert_eq!(out, expected, "{k:?} {n_in}x{n_out}");
            }
        }
    }

    #[test]
    fn every_kernel_activates_like_the_portable_one() {
        let mut rng = Rng::new(5);
        let simd = simd_kernels("ft_activate");
        let mut acc = random_i16(&mut rng, 512, 32_767);
        acc[..8].copy_from_slice(&[i16::MAX, i16::MIN, 0, 1, 2, 506, 507, -3]);
        let mut expected = vec![0u8; 512];
        ft_activate_portable(&acc, ExtraRows::NONE, &mut expected);
        assert_eq!(&expected[..8], &[127, 0, 0, 0, 1, 127, 127, 0]);
        for &k in &simd {
            let mut out = vec![0u8; 512];
            ft_activate(k, &acc, ExtraRows::NONE, &mut out);
            assert_eq!(out, expected, "{k:?}");
        }
    }

    /// Accumulators and rows whose sums wrap, saturate at the activation's +2 and land on
    /// either side of its clamps.
    fn first_layer_case(rng: &mut Rng, width: usize) -> (Vec<i16>, Vec<i16>, Vec<u16>, Vec<i16>) {
        let acc = random_i16(rng, width, 32_767);
        let weights = random_i16(rng, 180 * width, 600);
        let rows = vec![179, 3, 90, 3, 0];
        let out = random_i16(rng, width, 32_767);
        (acc, weights, rows, out)
    }

    #[test]
    fn extra_rows_are_added_before_the_activation_by_every_kernel() {
        let mut rng = Rng::new(11);
        let simd = simd_kernels("ft_activate with extra rows");
        for width in [32, 64, 256, 512] {
            let (acc, weights, rows, _) = first_layer_case(&mut rng, width);
            let sub = [7, 90, 7];
            let extra = ExtraRows { weights: &weights, rows: &rows, sub: &sub };
            // The definition: sum (wrapping), then activate.
            let summed: Vec<i16> = (0..width)
                .map(|i| {
                    let at = |r: u16| weights[usize::from(r) * width + i];
                    let added = rows.iter().fold(acc[i], |x, &r| x.wrapping_add(at(r)));
                    sub.iter().fold(added, |x, &r| x.wrapping_sub(at(r)))
                })
                .collect();
            let mut expected = vec![0u8; width];
            ft_activate_portable(&summed, ExtraRows::NONE, &mut expected);
            for k in [Kernel::Portable].into_iter().chain(simd.iter().copied()) {
                let mut out = vec![0u8; width];
                ft_activate(k, &acc, extra, &mut out);
                assert_eq!(out, expected, "{k:?} width {width}");
            }
        }
    }

    #[test]
    fn every_kernel_computes_the_same_output_dot() {
        let mut rng = Rng::new(13);
        let simd = simd_kernels("ft_dot");
        for width in [32, 64, 256, 512] {
            let (acc, weights, rows, out_w) = first_layer_case(&mut rng, width);
            for (rows, sub) in [(&rows[..], &[][..]), (&[], &[]), (&rows[..2], &rows[2..])] {
                let extra = ExtraRows { weights: &weights, rows, sub };
                let mut act = vec![0u8; width];
                ft_activate_portable(&acc, extra, &mut act);
                let expected: i32 = act.iter().zip(&out_w).map(|(&a, &w)| i32::from(a) * i32::from(w)).sum();
                assert_ne!(expected, 0);
                for k in [Kernel::Portable].into_iter().chain(simd.iter().copied()) {
                    assert_eq!(ft_dot(k, &acc, extra, &out_w), expected, "{k:?} width {width}");
                }
            }
        }
        // The largest sum: every activation 127, every weight i16::MAX, 512 inputs.
        let (acc, w) = (vec![i16::MAX; 512], vec![i16::MAX; 512]);
        for k in [Kernel::Portable].into_iter().chain(simd.iter().copied()) {
            assert_eq!(ft_dot(k, &acc, ExtraRows::NONE, &w), 512 * 127 * 32_767, "{k:?}");
        }
    }

    #[test]
    fn bad_shapes_do_not_read_out_of_bounds() {
        let mut out = vec![1; 16];
        affine(Kernel::detect(), &[1; 8], &[5], &[0; 128], &[0; 16], &mut out);
        assert_eq!(out, vec![0; 16]);
        let mut dst = vec![0i16; 32];
        update_row(Kernel::detect(), &[1; 64], &[2; 32], &mut dst, RowDelta { add: 2, sub: &[] });
        assert_eq!(dst, vec![2; 32]);
        // A row beyond the weights, or lengths that differ: zeros, no read out of bounds.
        let beyond = ExtraRows { weights: &[1; 64], rows: &[2], sub: &[] };
        let mut act = vec![1u8; 32];
        ft_activate(Kernel::detect(), &[100; 32], beyond, &mut act);
        assert_eq!(act, vec![0; 32]);
        assert_eq!(ft_dot(Kernel::detect(), &[100; 32], beyond, &[1; 32]), 0);
        assert_eq!(ft_dot(Kernel::detect(), &[100; 32], ExtraRows::NONE, &[1; 16]), 0);
        assert_eq!(ft_dot(Kernel::detect(), &[100; 32], ExtraRows::NONE, &[1; 32]), 32 * 25);
        assert!(Kernel::available().contains(&Kernel::Portable));
        assert!(Kernel::available().contains(&Kernel::detect()));
    }
}
