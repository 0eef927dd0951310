//! Probe: a point against a cone where GJK stagnates (local tool).
use proxima_geom::shape::{Cone, Point};
use proxima_geom::{Pose, QuerySettings, Shape, distance};

fn main() {
    let a = Shape::Point(Point::new([0.9251409367317979, 0.6436483884943275, 0.0]).unwrap());
    let pa = Pose::from_matrix(
        nalgebra::Matrix3::from_column_slice(&[
            0.3886429474884561,
            0.10728796417050088,
            0.9151207308938173,
            -0.527347347328674,
            -0.788537579516681,
            0.3164067966327283,
            0.7555537271649818,
            -0.605555759971056,
            -0.2498815458031684,
        ]),
        nalgebra::Vector3::new(-0.8955448010716673, 1.594094585310535, -1.799204805629867),
    )
    .unwrap();
    let _unused = Pose::new(
        [
            [0.3886429474884561, 0.10728796417050088, 0.9151207308938173],
            [-0.527347347328674, -0.788537579516681, 0.3164067966327283],
            [0.7555537271649818, -0.605555759971056, -0.2498815458031684],
        ],
        [-0.8955448010716673, 1.594094585310535, -1.799204805629867],
    )
    .unwrap();
    let b = Shape::Cone(Cone::new(0.6672988340764476, 0.7696349328006543).unwrap());
    let pb = Pose::from_matrix(
        nalgebra::Matrix3::from_column_slice(&[
            -0.23487245162270767,
            0.0,
            -0.9720261989621158,
            0.0,
            1.0,
            0.0,
            0.9720261989621158,
            0.0,
            -0.23487245162270767,
        ]),
        nalgebra::Vector3::new(-1.1666824276478758, 0.8543404382017328, -0.5938207178589491),
    )
    .unwrap();
    let _unused2 = Pose::new(
        [
            [-0.23487245162270767, 0.0, -0.9720261989621158],
            [0.0, 1.0, 0.0],
            [0.9720261989621158, 0.0, -0.23487245162270767],
        ],
        [-1.1666824276478758, 0.8543404382017328, -0.5938207178589491],
    )
    .unwrap();
    let s = QuerySettings::default();
    let r = distance(&a, &pa, &b, &pb, &s).unwrap();
    println!("{r:?}\ngap {:e}", r.certificate.upper - r.certificate.lower);
    let r = distance(&b, &pb, &a, &pa, &s).unwrap();
    println!("{r:?}\ngap {:e}", r.certificate.upper - r.certificate.lower);
}
