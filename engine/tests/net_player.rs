//! An alpha-beta player over a value-network file, built from its spec (`eval=net:PATH`).

use fanorona_core::{DrawRules, Game, Position};
use fanorona_engine::PlayerSpec;
use fanorona_nn::{Architecture, Network};

#[test]
fn net_spec_loads_the_file_and_plays_legal_turns() {
    let dir = std::env::temp_dir().join(format!("fanorona-engine-net-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("random.net");
    let arch = Architecture::mlp(&[16]).unwrap();
    Network::random(&arch, 7).unwrap().write_file(&path).unwrap();

    let spec: PlayerSpec = format!("alphabeta:depth=2,eval=net:{}", path.display()).parse().unwrap();
    let mut player = spec.build(1).unwrap();
    let mut game = Game::new(Position::start(), DrawRules::default());
    for _ in 0..6 {
        if game.outcome().is_some() {
            break;
        }
        let d = player.choose(&game);
        assert!(game.legal_moves().contains(&d.mv));
        assert_eq!(d.depth, Some(2));
        game.play(&d.mv).unwrap();
    }
    // The same spec again plays the same turns (the network and the search are deterministic).
    let mut again = spec.build(1).unwrap();
    let mut replay = Game::new(Position::start(), DrawRules::default());
    for m in game.moves() {
        assert_eq!(again.choose(&replay).mv, *m);
        replay.play(m).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
