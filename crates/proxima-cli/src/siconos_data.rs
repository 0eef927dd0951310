//! The Siconos LCP test problems vendored in `testdata/siconos-lcp` (Apache-2.0, see the README
//! there), compiled into the binary so that `proxima demo` shows them wherever it runs.

/// (name, file text) of every `lcp_*.dat` file, sorted by name.
pub const SICONOS_FILES: &[(&str, &str)] = &[
    ("lcp_CPS_1", include_str!("../../../testdata/siconos-lcp/lcp_CPS_1.dat")),
    ("lcp_CPS_2", include_str!("../../../testdata/siconos-lcp/lcp_CPS_2.dat")),
    ("lcp_CPS_3", include_str!("../../../testdata/siconos-lcp/lcp_CPS_3.dat")),
    ("lcp_CPS_4", include_str!("../../../testdata/siconos-lcp/lcp_CPS_4.dat")),
    ("lcp_CPS_4bis", include_str!("../../../testdata/siconos-lcp/lcp_CPS_4bis.dat")),
    ("lcp_CPS_5", include_str!("../../../testdata/siconos-lcp/lcp_CPS_5.dat")),
    ("lcp_Pang_isolated_sol", include_str!("../../../testdata/siconos-lcp/lcp_Pang_isolated_sol.dat")),
    (
        "lcp_Pang_isolated_sol_perturbed",
        include_str!("../../../testdata/siconos-lcp/lcp_Pang_isolated_sol_perturbed.dat"),
    ),
    ("lcp_deudeu", include_str!("../../../testdata/siconos-lcp/lcp_deudeu.dat")),
    ("lcp_deudeu_block", include_str!("../../../testdata/siconos-lcp/lcp_deudeu_block.dat")),
    ("lcp_enum_fails", include_str!("../../../testdata/siconos-lcp/lcp_enum_fails.dat")),
    ("lcp_exp_murty", include_str!("../../../testdata/siconos-lcp/lcp_exp_murty.dat")),
    ("lcp_exp_murty2", include_str!("../../../testdata/siconos-lcp/lcp_exp_murty2.dat")),
    ("lcp_inf_sol_perturbed", include_str!("../../../testdata/siconos-lcp/lcp_inf_sol_perturbed.dat")),
    ("lcp_mmc", include_str!("../../../testdata/siconos-lcp/lcp_mmc.dat")),
    ("lcp_ortiz", include_str!("../../../testdata/siconos-lcp/lcp_ortiz.dat")),
    ("lcp_ortiz_block", include_str!("../../../testdata/siconos-lcp/lcp_ortiz_block.dat")),
    ("lcp_tobenna", include_str!("../../../testdata/siconos-lcp/lcp_tobenna.dat")),
    ("lcp_trivial", include_str!("../../../testdata/siconos-lcp/lcp_trivial.dat")),
    ("lcp_trivial_block", include_str!("../../../testdata/siconos-lcp/lcp_trivial_block.dat")),
];
