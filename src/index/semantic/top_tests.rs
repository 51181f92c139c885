//! [`SemanticIndex::top`] (one pass keeping the best `k`) against the plain rule it
//! replaces: score every row, sort by cosine descending then row, keep `k`.

use super::{DIMS, QueryVector, SemanticIndex, cosine_value};

/// Rows from a small linear congruential generator: the same every run.
fn index_of(n: usize, roots: &[usize]) -> SemanticIndex {
    let mut x: u32 = 12345;
    let mut next = || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (x >> 16) as i32
    };
    let mut rows = Vec::with_capacity(n * DIMS);
    let mut scales = Vec::with_capacity(n);
    for i in 0..n {
        // Every 7th row repeats row 0 (ties broken by row order), every 11th has no tokens.
        if i % 7 == 6 {
            let first: Vec<i8> = rows[..DIMS].to_vec();
            rows.extend(first);
            scales.push(scales[0]);
            continue;
        }
        rows.extend((0..DIMS).map(|_| (next() % 255 - 127) as i8));
        scales.push(if i % 11 == 10 {
            0.0
        } else {
            0.001 + (next() % 100) as f32 * 1e-5
        });
    }
    SemanticIndex {
        root_start: roots.to_vec(),
        rows,
        scales,
        hashes: vec![0; n],
    }
}

fn reference(sem: &SemanticIndex, qv: &QueryVector, k: usize) -> Vec<(usize, u32, f64)> {
    let mut all: Vec<(usize, f64)> = (0..sem.len())
        .filter(|&i| sem.scales[i] > 0.0)
        .map(|i| (i, sem.cosine_row(i, qv)))
        .collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(k);
    all.into_iter()
        .map(|(i, c)| {
            let r = sem.root_start.partition_point(|&s| s <= i) - 1;
            (r, (i - sem.root_start[r]) as u32, c)
        })
        .collect()
}

#[test]
fn top_k_is_the_sorted_rule_for_every_k() {
    let sem = index_of(400, &[0, 150, 151, 300]);
    for seed in [1i16, -3, 7] {
        let mut q = [0i16; DIMS];
        for (j, c) in q.iter_mut().enumerate() {
            *c = ((j as i32 * i32::from(seed) * 37).rem_euclid(255) - 127) as i16;
        }
        let qv = QueryVector { q, scale: 0.004 };
        for k in [0, 1, 2, 5, 50, 399, 400, 1000] {
            assert_eq!(
                sem.top(&qv, k),
                reference(&sem, &qv, k),
                "k {k} seed {seed}"
            );
        }
    }
    assert_eq!(cosine_value(10, 0.5, 0.25).to_bits(), 1.25f64.to_bits());
}
