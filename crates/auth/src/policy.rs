//! The access class of every gRPC method, in one table. A method not named here is for
//! operators: new methods are closed until someone decides otherwise.

/// Who may call a method.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Anyone: gRPC health and reflection (they reveal no state), and `BotGateway.Play`, whose
    /// bot token the gateway checks itself against the bot its `Hello` names.
    Public,
    /// Read-only views of results (standings, the leaderboard, competitions, replays of
    /// finished tables): operators, and anyone when the operator opens them to the public.
    Spectator,
    /// Operators (an operator token or the bootstrap token).
    Operator,
    /// The cluster's own roles (the cluster token): a referee opening seats on bot-host.
    Cluster,
}

/// Methods of `arena.v1.Matchmaker` that only read results.
const SPECTATOR_METHODS: [&str; 7] = [
    "GetCompetition",
    "ListCompetitions",
    "WatchCompetition",
    "GetStandings",
    "ExportReplays",
    "GetReplay",
    "GetLeaderboard",
];

/// The access class of the method at HTTP/2 `path` (`/package.Service/Method`).
pub fn access(path: &str) -> Access {
    let Some((service, method)) = path.strip_prefix('/').and_then(|p| p.split_once('/')) else {
        return Access::Operator;
    };
    match service {
        "grpc.health.v1.Health"
        | "grpc.reflection.v1.ServerReflection"
        | "grpc.reflection.v1alpha.ServerReflection" => Access::Public,
        "arena.v1.BotGateway" if method == "Play" => Access::Public,
        "arena.v1.SeatHost" if method == "Seat" || method == "Seats" => Access::Cluster,
        "arena.v1.Matchmaker" if SPECTATOR_METHODS.contains(&method) => Access::Spectator,
        _ => Access::Operator,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_has_its_class_and_unknown_ones_are_for_operators() {
        assert_eq!(access("/grpc.health.v1.Health/Check"), Access::Public);
        assert_eq!(access("/grpc.health.v1.Health/Watch"), Access::Public);
        assert_eq!(
            access("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"),
            Access::Public
        );
        assert_eq!(access("/arena.v1.BotGateway/Play"), Access::Public);
        assert_eq!(access("/arena.v1.SeatHost/Seat"), Access::Cluster);
        assert_eq!(access("/arena.v1.SeatHost/Seats"), Access::Cluster);
        for m in SPECTATOR_METHODS {
            assert_eq!(
                access(&format!("/arena.v1.Matchmaker/{m}")),
                Access::Spectator
            );
        }
        for op in [
            "/arena.v1.Matchmaker/CreateCompetition",
            "/arena.v1.Matchmaker/CancelCompetition",
            "/arena.v1.DealLibrary/Export",
            "/arena.v1.DealLibrary/Query",
            "/arena.v1.DealLibrary/Measure",
            "/arena.v1.TableReferee/SubmitTable",
            "/arena.v1.TableReferee/GetReplay",
            "/arena.v1.TableReferee/GetResult",
            "/arena.v1.BotRegistry/AddBot",
            "/arena.v1.BotRegistry/ListBots",
            "/arena.v1.BotRegistry/RotateBotToken",
            "/arena.v1.BotRegistry/RemoveBot",
            "/arena.v1.BotGateway/Other",
            "/arena.v1.NewService/Anything",
            "garbage",
            "",
        ] {
            assert_eq!(access(op), Access::Operator, "{op}");
        }
    }
}
