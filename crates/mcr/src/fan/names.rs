//! The fans: their points and their English and Chinese names.

macro_rules! fans {
    ($($variant:ident = $n:literal, $points:literal, $en:literal, $zh:literal;)*) => {
        /// One fan (番) of the Chinese Official rules, numbered as the fan library numbers them
        /// (1 Big Four Winds … 81 Flower Tiles), plus Concealed Kong and Melded Kong (82), which
        /// the library (and so Botzone) scores for one concealed and one melded kong.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Fan {
            $(
                #[doc = concat!($en, " (", $zh, "), ", stringify!($points), " points.")]
                $variant = $n,
            )*
        }

        impl Fan {
            /// Every fan, in the library's order (highest value first).
            pub const ALL: [Fan; FAN_COUNT] = [$(Fan::$variant),*];

            /// The points one occurrence of the fan is worth.
            pub const fn points(self) -> u16 {
                match self {
                    $(Fan::$variant => $points,)*
                }
            }

            /// The fan's English name.
            pub const fn name_en(self) -> &'static str {
                match self {
                    $(Fan::$variant => $en,)*
                }
            }

            /// The fan's Chinese name.
            pub const fn name_zh(self) -> &'static str {
                match self {
                    $(Fan::$variant => $zh,)*
                }
            }
        }
    };
}

/// How many fans [`Fan`] lists (the 81 of the rules and Concealed Kong and Melded Kong).
pub const FAN_COUNT: usize = 82;

fans! {
    BigFourWinds = 1, 88, "Big Four Winds", "大四喜";
    BigThreeDragons = 2, 88, "Big Three Dragons", "大三元";
    AllGreen = 3, 88, "All Green", "绿一色";
    NineGates = 4, 88, "Nine Gates", "九莲宝灯";
    FourKongs = 5, 88, "Four Kongs", "四杠";
    SevenShiftedPairs = 6, 88, "Seven Shifted Pairs", "连七对";
    ThirteenOrphans = 7, 88, "Thirteen Orphans", "十三幺";
    AllTerminals = 8, 64, "All Terminals", "清幺九";
    LittleFourWinds = 9, 64, "Little Four Winds", "小四喜";
    LittleThreeDragons = 10, 64, "Little Three Dragons", "小三元";
    AllHonors = 11, 64, "All Honors", "字一色";
    FourConcealedPungs = 12, 64, "Four Concealed Pungs", "四暗刻";
    PureTerminalChows = 13, 64, "Pure Terminal Chows", "一色双龙会";
    QuadrupleChow = 14, 48, "Quadruple Chow", "一色四同顺";
    FourPureShiftedPungs = 15, 48, "Four Pure Shifted Pungs", "一色四节高";
    FourPureShiftedChows = 16, 32, "Four Pure Shifted Chows", "一色四步高";
    ThreeKongs = 17, 32, "Three Kongs", "三杠";
    AllTerminalsAndHonors = 18, 32, "All Terminals and Honors", "混幺九";
    SevenPairs = 19, 24, "Seven Pairs", "七对";
    GreaterHonorsAndKnittedTiles = 20, 24, "Greater Honors and Knitted Tiles", "七星不靠";
    AllEvenPungs = 21, 24, "All Even Pungs", "全双刻";
    FullFlush = 22, 24, "Full Flush", "清一色";
    PureTripleChow = 23, 24, "Pure Triple Chow", "一色三同顺";
    PureShiftedPungs = 24, 24, "Pure Shifted Pungs", "一色三节高";
    UpperTiles = 25, 24, "Upper Tiles", "全大";
    MiddleTiles = 26, 24, "Middle Tiles", "全中";
    LowerTiles = 27, 24, "Lower Tiles", "全小";
    PureStraight = 28, 16, "Pure Straight", "清龙";
    ThreeSuitedTerminalChows = 29, 16, "Three-Suited Terminal Chows", "三色双龙会";
    PureShiftedChows = 30, 16, "Pure Shifted Chows", "一色三步高";
    AllFive = 31, 16, "All Five", "全带五";
    TriplePung = 32, 16, "Triple Pung", "三同刻";
    ThreeConcealedPungs = 33, 16, "Three Concealed Pungs", "三暗刻";
    LesserHonorsAndKnittedTiles = 34, 12, "Lesser Honors and Knitted Tiles", "全不靠";
    KnittedStraight = 35, 12, "Knitted Straight", "组合龙";
    UpperFour = 36, 12, "Upper Four", "大于五";
    LowerFour = 37, 12, "Lower Four", "小于五";
    BigThreeWinds = 38, 12, "Big Three Winds", "三风刻";
    MixedStraight = 39, 8, "Mixed Straight", "花龙";
    ReversibleTiles = 40, 8, "Reversible Tiles", "推不倒";
    MixedTripleChow = 41, 8, "Mixed Triple Chow", "三色三同顺";
    MixedShiftedPungs = 42, 8, "Mixed Shifted Pungs", "三色三节高";
    ChickenHand = 43, 8, "Chicken Hand", "无番和";
    LastTileDraw = 44, 8, "Last Tile Draw", "妙手回春";
    LastTileClaim = 45, 8, "Last Tile Claim", "海底捞月";
    OutWithReplacementTile = 46, 8, "Out with Replacement Tile", "杠上开花";
    RobbingTheKong = 47, 8, "Robbing The Kong", "抢杠和";
    AllPungs = 48, 6, "All Pungs", "碰碰和";
    HalfFlush = 49, 6, "Half Flush", "混一色";
    MixedShiftedChows = 50, 6, "Mixed Shifted Chows", "三色三步高";
    AllTypes = 51, 6, "All Types", "五门齐";
    MeldedHand = 52, 6, "Melded Hand", "全求人";
    TwoConcealedKongs = 53, 6, "Two Concealed Kongs", "双暗杠";
    TwoDragonsPungs = 54, 6, "Two Dragons Pungs", "双箭刻";
    OutsideHand = 55, 4, "Outside Hand", "全带幺";
    FullyConcealedHand = 56, 4, "Fully Concealed Hand", "不求人";
    TwoMeldedKongs = 57, 4, "Two Melded Kongs", "双明杠";
    LastTile = 58, 4, "Last Tile", "和绝张";
    DragonPung = 59, 2, "Dragon Pung", "箭刻";
    PrevalentWind = 60, 2, "Prevalent Wind", "圈风刻";
    SeatWind = 61, 2, "Seat Wind", "门风刻";
    ConcealedHand = 62, 2, "Concealed Hand", "门前清";
    AllChows = 63, 2, "All Chows", "平和";
    TileHog = 64, 2, "Tile Hog", "四归一";
    DoublePung = 65, 2, "Double Pung", "双同刻";
    TwoConcealedPungs = 66, 2, "Two Concealed Pungs", "双暗刻";
    ConcealedKong = 67, 2, "Concealed Kong", "暗杠";
    AllSimples = 68, 2, "All Simples", "断幺";
    PureDoubleChow = 69, 1, "Pure Double Chow", "一般高";
    MixedDoubleChow = 70, 1, "Mixed Double Chow", "喜相逢";
    ShortStraight = 71, 1, "Short Straight", "连六";
    TwoTerminalChows = 72, 1, "Two Terminal Chows", "老少副";
    PungOfTerminalsOrHonors = 73, 1, "Pung of Terminals or Honors", "幺九刻";
    MeldedKong = 74, 1, "Melded Kong", "明杠";
    OneVoidedSuit = 75, 1, "One Voided Suit", "缺一门";
    NoHonors = 76, 1, "No Honors", "无字";
    EdgeWait = 77, 1, "Edge Wait", "边张";
    ClosedWait = 78, 1, "Closed Wait", "嵌张";
    SingleWait = 79, 1, "Single Wait", "单钓将";
    SelfDrawn = 80, 1, "Self-Drawn", "自摸";
    FlowerTiles = 81, 1, "Flower Tiles", "花牌";
    ConcealedKongAndMeldedKong = 82, 5, "Concealed Kong and Melded Kong", "明暗杠";
}

impl Fan {
    /// The fan numbered `n` (1–82).
    pub fn from_number(n: u8) -> Option<Fan> {
        Fan::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// The fan's number, 1–82.
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The fan whose English name is `name` (ASCII case ignored).
    pub fn from_name_en(name: &str) -> Option<Fan> {
        Fan::ALL
            .into_iter()
            .find(|f| f.name_en().eq_ignore_ascii_case(name))
    }
}

impl std::fmt::Display for Fan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name_en())
    }
}
