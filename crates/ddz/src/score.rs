//! How a finished game is scored. A game records its outcome once; every scoring mode reads it.

use std::fmt;
use std::str::FromStr;

use crate::{Role, Seat};

/// A scoring mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// Competition rules: each farmer scores `bid × s × 2^(bombs + rockets + spring + own double
    /// + redouble if it doubled)`, s = +1 when the farmers win; the landlord scores minus their sum.
    Competition,
    /// The equal-strength paper's: landlord `w × (bombs + rockets) + w`, w = ±1 as the landlord
    /// wins or loses; each farmer scores the negation.
    Difficulty,
    /// DouZero's average difference in points: landlord `±2 × 2^(bombs + rockets)`, each farmer
    /// `∓2^(bombs + rockets)`.
    Adp,
    /// Win/lose: 1 for each seat of the winning side, 0 otherwise.
    Wp,
    /// Botzone's FightTheLandlord2: `m = max(bid, 1) × 2^(bombs + rockets + spring +
    /// anti-spring)`; the landlord scores `±2m`, each farmer `∓m` (+ for the winning side).
    Botzone,
    /// Botzone's FightTheLandlord, in units of 1/200 point ([`Scoring::scale`]): the winning
    /// side 2, each seat plus its plays' card-type weights / 100 ([`Outcome::ftl_weights`]),
    /// the two farmers' scores then averaged; a forfeit scores the faulty side −1 per seat
    /// and the other side 2.5 per seat. Its judge's scores are fractions with 200 as a common
    /// denominator, so × 200 they are exact integers.
    BotzoneFtl,
}

impl Scoring {
    /// Every mode.
    pub const ALL: [Scoring; 6] = [
        Scoring::Competition,
        Scoring::Difficulty,
        Scoring::Adp,
        Scoring::Wp,
        Scoring::Botzone,
        Scoring::BotzoneFtl,
    ];

    /// The mode's name as written on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Competition => "competition",
            Scoring::Difficulty => "difficulty",
            Scoring::Adp => "adp",
            Scoring::Wp => "wp",
            Scoring::Botzone => "botzone",
            Scoring::BotzoneFtl => "botzone-ftl",
        }
    }

    /// How many score units make one point of the mode: 200 for [`Scoring::BotzoneFtl`],
    /// whose judge scores in fractions of 1/200, 1 for every other mode.
    pub const fn scale(self) -> i64 {
        match self {
            Scoring::BotzoneFtl => 200,
            _ => 1,
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scoring {
    type Err = String;
    fn from_str(s: &str) -> Result<Scoring, String> {
        Scoring::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                format!("unknown scoring mode {s:?} (expected competition, difficulty, adp, wp, botzone or botzone-ftl)")
            })
    }
}

/// The result of a finished game: everything any scoring mode needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The landlord's seat.
    pub landlord: Seat,
    /// The seat that went out first.
    pub winner: Seat,
    /// The winning bid (1 for games without bidding unless configured otherwise).
    pub bid: u8,
    /// Bombs played (the rocket not included).
    pub bombs: u8,
    /// Rockets played (0 or 1).
    pub rockets: u8,
    /// The landlord won and neither farmer played a card.
    pub spring: bool,
    /// The farmers won and the landlord played only its first hand.
    pub anti_spring: bool,
    /// Which seats doubled (only farmers can).
    pub doubled: [bool; 3],
    /// The landlord redoubled.
    pub redoubled: bool,
    /// Each seat's FightTheLandlord card-type weights, summed over its plays (its judge's
    /// extra score × 100: [`crate::botzone::ftl_move_weight`]).
    #[serde(default)]
    pub ftl_weights: [u16; 3],
    /// The game ended at a seat's fault ([`Outcome::winner`] is then on the other side).
    #[serde(default)]
    pub forfeit: bool,
}

impl Outcome {
    /// True if the landlord won.
    #[inline]
    pub fn landlord_won(&self) -> bool {
        self.winner == self.landlord
    }

    /// Bombs and rockets together.
    #[inline]
    pub fn all_bombs(&self) -> u32 {
        self.bombs as u32 + self.rockets as u32
    }

    /// Scores by seat under `mode`.
    pub fn scores(&self, mode: Scoring) -> [i64; 3] {
        let w: i64 = if self.landlord_won() { 1 } else { -1 };
        let l = self.landlord.index();
        let mut s = [0i64; 3];
        match mode {
            Scoring::Competition => {
                let spring = u32::from(self.spring || self.anti_spring);
                let mut total = 0;
                for seat in Seat::ALL {
                    if seat == self.landlord {
                        continue;
                    }
                    let own = u32::from(self.doubled[seat.index()]);
                    let re = own & u32::from(self.redoubled);
                    let exp = self.all_bombs() + spring + own + re;
                    let v = -w * self.bid as i64 * (1i64 << exp.min(62));
                    s[seat.index()] = v;
                    total += v;
                }
                s[l] = -total;
            }
            Scoring::Difficulty => {
                let v = w * self.all_bombs() as i64 + w;
                s = [-v; 3];
                s[l] = v;
            }
            Scoring::Adp => {
                let unit = 1i64 << self.all_bombs().min(61);
                s = [-w * unit; 3];
                s[l] = 2 * w * unit;
            }
            Scoring::Wp => {
                let lw = i64::from(self.landlord_won());
                s = [1 - lw; 3];
                s[l] = lw;
            }
            Scoring::Botzone => {
                let exp = self.all_bombs() + u32::from(self.spring) + u32::from(self.anti_spring);
                let m = i64::from(self.bid.max(1)) << exp.min(60);
                s = [-w * m; 3];
                s[l] = 2 * w * m;
            }
            Scoring::BotzoneFtl => {
                // × 200: a side's 2 is 400, a weight of 1/100 is 2, and the farmers' average
                // of their weights / 100 is the sum of their weights.
                let (landlord, farmers) = if self.forfeit {
                    if self.landlord_won() {
                        (500, -200)
                    } else {
                        (-200, 500)
                    }
                } else {
                    let weight = |seat: Seat| i64::from(self.ftl_weights[seat.index()]);
                    let farmer_weights: i64 = Seat::ALL
                        .into_iter()
                        .filter(|&seat| seat != self.landlord)
                        .map(weight)
                        .sum();
                    let (lw, fw) = if self.landlord_won() {
                        (400, 0)
                    } else {
                        (0, 400)
                    };
                    (lw + 2 * weight(self.landlord), fw + farmer_weights)
                };
                s = [farmers; 3];
                s[l] = landlord;
            }
        }
        s
    }

    /// The landlord's score under `mode`.
    #[inline]
    pub fn landlord_score(&self, mode: Scoring) -> i64 {
        self.scores(mode)[self.landlord.index()]
    }

    /// The score of the seat holding `role` under `mode`.
    #[inline]
    pub fn role_score(&self, role: Role, mode: Scoring) -> i64 {
        self.scores(mode)[role.seat(self.landlord).index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(landlord_won: bool) -> Outcome {
        let l = Seat::new(0).unwrap();
        Outcome {
            landlord: l,
            winner: if landlord_won { l } else { l.next() },
            bid: 1,
            bombs: 0,
            rockets: 0,
            spring: false,
            anti_spring: false,
            doubled: [false; 3],
            redoubled: false,
            ftl_weights: [0; 3],
            forfeit: false,
        }
    }

    #[test]
    fn worked_example_from_the_rules() {
        // Bid 3, one bomb, one rocket, anti-spring, only farmer 1 doubled, landlord redoubled.
        let o = Outcome {
            bid: 3,
            bombs: 1,
            rockets: 1,
            anti_spring: true,
            doubled: [false, true, false],
            redoubled: true,
            ..outcome(false)
        };
        assert_eq!(o.scores(Scoring::Competition), [-120, 96, 24]);
    }

    #[test]
    fn difficulty_levels_with_one_bomb() {
        let win = outcome(true);
        let lose = outcome(false);
        let bomb = |o: Outcome| Outcome { bombs: 1, ..o };
        assert_eq!(lose.landlord_score(Scoring::Difficulty), -1);
        assert_eq!(bomb(lose).landlord_score(Scoring::Difficulty), -2);
        assert_eq!(win.landlord_score(Scoring::Difficulty), 1);
        assert_eq!(bomb(win).landlord_score(Scoring::Difficulty), 2);
        let rocket = Outcome { rockets: 1, ..win };
        assert_eq!(rocket.landlord_score(Scoring::Difficulty), 2);
    }

    #[test]
    fn adp_and_wp() {
        let o = Outcome {
            bombs: 2,
            ..outcome(true)
        };
        assert_eq!(o.scores(Scoring::Adp), [8, -4, -4]);
        assert_eq!(o.scores(Scoring::Wp), [1, 0, 0]);
        let o = outcome(false);
        assert_eq!(o.scores(Scoring::Adp), [-2, 1, 1]);
        assert_eq!(o.scores(Scoring::Wp), [0, 1, 1]);
    }

    #[test]
    fn botzone_scores_as_fightthelandlord2s_judge() {
        // Bid 3, one bomb, one rocket, anti-spring: m = 3 << 3 = 24; the farmers won.
        // Doubling is not Botzone's: it changes nothing.
        let o = Outcome {
            bid: 3,
            bombs: 1,
            rockets: 1,
            anti_spring: true,
            doubled: [false, true, false],
            ..outcome(false)
        };
        assert_eq!(o.scores(Scoring::Botzone), [-48, 24, 24]);
        // Everyone passed: seat 0 is landlord at bid 0, scored as 1; a spring doubles.
        let o = Outcome {
            bid: 0,
            spring: true,
            ..outcome(true)
        };
        assert_eq!(o.scores(Scoring::Botzone), [4, -2, -2]);
        assert_eq!("botzone".parse::<Scoring>(), Ok(Scoring::Botzone));
    }

    #[test]
    fn botzone_ftl_scores_as_fightthelandlords_judge_times_200() {
        // The judge's printFinish: the winning side 2, every seat plus its weights / 100, then
        // the farmers' two scores averaged.
        // Landlord won, weights 17 (a single, a straight, a bomb), 3 and 4:
        // landlord 2 + 0.17 = 2.17 → 434; farmers (0.03 + 0.04) / 2 = 0.035 → 7.
        let o = Outcome {
            ftl_weights: [17, 3, 4],
            ..outcome(true)
        };
        assert_eq!(o.scores(Scoring::BotzoneFtl), [434, 7, 7]);
        // Farmers won, weights 12, 5 and 8: landlord 0.12 → 24; farmers (2.05 + 2.08) / 2 =
        // 2.065 → 413. Bombs, bids and springs change nothing: FightTheLandlord has no
        // multiplier.
        let o = Outcome {
            ftl_weights: [12, 5, 8],
            bombs: 2,
            bid: 3,
            anti_spring: true,
            ..outcome(false)
        };
        assert_eq!(o.scores(Scoring::BotzoneFtl), [24, 413, 413]);
        // The judge's printError: a landlord's foul scores −1 and 2.5 each for the farmers; a
        // farmer's foul 2.5 for the landlord and −1 for both farmers. Weights do not count.
        let landlord_fouled = Outcome {
            forfeit: true,
            ftl_weights: [30, 0, 0],
            ..outcome(false)
        };
        assert_eq!(
            landlord_fouled.scores(Scoring::BotzoneFtl),
            [-200, 500, 500]
        );
        let farmer_fouled = Outcome {
            forfeit: true,
            ..outcome(true)
        };
        assert_eq!(farmer_fouled.scores(Scoring::BotzoneFtl), [500, -200, -200]);
        // A landlord in another seat: the roles, not the seats, are scored.
        let o = Outcome {
            landlord: Seat::new(2).unwrap(),
            winner: Seat::new(2).unwrap(),
            ftl_weights: [1, 2, 10],
            ..outcome(true)
        };
        assert_eq!(o.scores(Scoring::BotzoneFtl), [3, 3, 420]);
        assert_eq!("botzone-ftl".parse::<Scoring>(), Ok(Scoring::BotzoneFtl));
        assert_eq!(Scoring::BotzoneFtl.scale(), 200);
        assert_eq!(Scoring::Botzone.scale(), 1);
    }

    #[test]
    fn competition_spring_doubles_everything() {
        let o = Outcome {
            spring: true,
            bid: 2,
            ..outcome(true)
        };
        assert_eq!(o.scores(Scoring::Competition), [8, -4, -4]);
        let o = Outcome {
            doubled: [false, true, true],
            redoubled: true,
            ..outcome(true)
        };
        assert_eq!(o.scores(Scoring::Competition), [8, -4, -4]);
    }

    #[test]
    fn competition_scores_sum_to_zero() {
        for won in [true, false] {
            let o = Outcome {
                bombs: 3,
                doubled: [false, true, false],
                redoubled: true,
                ..outcome(won)
            };
            assert_eq!(o.scores(Scoring::Competition).iter().sum::<i64>(), 0);
        }
    }
}
