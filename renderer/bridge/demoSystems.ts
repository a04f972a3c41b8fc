// Small, hand-written system views for the fake bridge (dev mode and tests). Approximate and
// incomplete on purpose: they exercise the screen (coordinates or none, Chinese and Arabic local
// names, three fare formats), they are not travel information.
import type { SystemView } from "../../runtime/kiosk/bridge.ts";

type StationSpec = [id: string, name: string, localNames: string[], lat: number | null, lon: number | null];

function stations(specs: StationSpec[], lines: SystemView["lines"]): SystemView["stations"] {
  return specs.map(([id, name, localNames, lat, lon]) => ({
    id,
    name,
    localNames,
    lines: lines.filter((line) => line.stations.includes(id)).map((line) => line.id),
    lat,
    lon,
  }));
}

const DEMO_ATTRIBUTION = "Demo data for development only — not for travel.";

const martaLines: SystemView["lines"] = [
  { id: "red", name: "Red Line", color: "#CE242B", stations: ["M-AP", "M-CP", "M-WE", "M-FP", "M-PC", "M-NA", "M-MT", "M-AC", "M-LC", "M-BH", "M-NS"] },
  { id: "gold", name: "Gold Line", color: "#D4A723", stations: ["M-AP", "M-CP", "M-WE", "M-FP", "M-PC", "M-NA", "M-MT", "M-AC", "M-LC", "M-DO"] },
  { id: "blue", name: "Blue Line", color: "#0075B2", stations: ["M-HEH", "M-WL", "M-VC", "M-FP", "M-GS", "M-IP", "M-DC", "M-IC"] },
  { id: "green", name: "Green Line", color: "#009D4B", stations: ["M-BK", "M-VC", "M-FP", "M-GS", "M-IP", "M-EC"] },
];

export const DEMO_MARTA: SystemView = {
  id: "marta",
  orgName: "MARTA",
  fullName: "Metropolitan Atlanta Rapid Transit Authority",
  primaryLanguage: "en",
  currencySymbol: "$",
  currencyCode: "USD",
  fareDisplayFormat: "$X.XX",
  terminology: { smartcard: "Breeze Card", contactless: "Contactless payment", reduced_fare: "Reduced Fare", station: "station", line: "line", transfer: "transfer" },
  paymentMethods: [
    { id: "breeze_card", label: "Breeze Card" },
    { id: "contactless", label: "Contactless payment" },
  ],
  riderTypes: ["adults", "children", "seniors", "disabled"],
  operatingHours: { default: "05:00-01:00" },
  stations: stations(
    [
      ["M-AP", "Airport", [], 33.6407, -84.4462],
      ["M-CP", "College Park", [], 33.6511, -84.4488],
      ["M-WE", "West End", [], 33.7359, -84.4129],
      ["M-FP", "Five Points", [], 33.7539, -84.3916],
      ["M-PC", "Peachtree Center", [], 33.7597, -84.3875],
      ["M-NA", "North Avenue", [], 33.7716, -84.3872],
      ["M-MT", "Midtown", [], 33.7810, -84.3864],
      ["M-AC", "Arts Center", [], 33.7893, -84.3871],
      ["M-LC", "Lindbergh Center", [], 33.8232, -84.3693],
      ["M-BH", "Buckhead", [], 33.8476, -84.3674],
      ["M-NS", "North Springs", [], 33.9452, -84.3573],
      ["M-DO", "Doraville", [], 33.9026, -84.2804],
      ["M-HEH", "Hamilton E. Holmes", [], 33.7545, -84.4697],
      ["M-WL", "West Lake", [], 33.7532, -84.4454],
      ["M-VC", "Vine City", [], 33.7566, -84.4040],
      ["M-GS", "Georgia State", [], 33.7500, -84.3858],
      ["M-IP", "Inman Park/Reynoldstown", [], 33.7575, -84.3522],
      ["M-DC", "Decatur", [], 33.7747, -84.2955],
      ["M-IC", "Indian Creek", [], 33.7698, -84.2292],
      ["M-BK", "Bankhead", [], 33.7722, -84.4288],
      ["M-EC", "Edgewood/Candler Park", [], 33.7619, -84.3398],
    ],
    martaLines,
  ),
  lines: martaLines,
  framebookVersion: "demo",
  attribution: DEMO_ATTRIBUTION,
};

const beijingLines: SystemView["lines"] = [
  { id: "1", name: "Line 1", color: "#A4343A", stations: ["B-GOZ", "B-MUX", "B-FUX", "B-XID", "B-TAX", "B-TAD", "B-WFJ", "B-DOD", "B-JGM", "B-GUM"] },
  { id: "2", name: "Line 2", color: "#004B87", stations: ["B-XZM", "B-FUX", "B-JGM", "B-DZM", "B-YHG", "B-GLO"] },
  { id: "capital_airport", name: "Capital Airport Express", color: "#A192B2", stations: ["B-DZM", "B-SYQ", "B-T3", "B-T2"] },
];

export const DEMO_BEIJING: SystemView = {
  id: "beijing",
  orgName: "Beijing Metro",
  fullName: "Beijing Mass Transit Railway Operation Corporation",
  primaryLanguage: "zh",
  currencySymbol: "¥",
  currencyCode: "CNY",
  fareDisplayFormat: "¥X",
  terminology: { smartcard: "Yikatong Card", contactless: "Mobile payment (Alipay/WeChat Pay)", reduced_fare: "Half-price ticket" },
  paymentMethods: [
    { id: "yikatong", label: "Yikatong Card" },
    { id: "mobile_pay", label: "Mobile payment (Alipay/WeChat Pay)" },
    { id: "single_journey", label: "Single journey ticket" },
  ],
  riderTypes: ["adults", "children", "seniors"],
  operatingHours: { default: "05:00-23:00" },
  // No coordinates: the map falls back to the schematic layout.
  stations: stations(
    [
      ["B-GOZ", "Gongzhufen", ["公主坟"], null, null],
      ["B-MUX", "Muxidi", ["木樨地"], null, null],
      ["B-FUX", "Fuxingmen", ["复兴门"], null, null],
      ["B-XID", "Xidan", ["西单"], null, null],
      ["B-TAX", "Tian'anmen West", ["天安门西"], null, null],
      ["B-TAD", "Tian'anmen East", ["天安门东"], null, null],
      ["B-WFJ", "Wangfujing", ["王府井"], null, null],
      ["B-DOD", "Dongdan", ["东单"], null, null],
      ["B-JGM", "Jianguomen", ["建国门"], null, null],
      ["B-GUM", "Guomao", ["国贸"], null, null],
      ["B-XZM", "Xizhimen", ["西直门"], null, null],
      ["B-DZM", "Dongzhimen", ["东直门"], null, null],
      ["B-YHG", "Yonghegong Lama Temple", ["雍和宫"], null, null],
      ["B-GLO", "Gulou Dajie", ["鼓楼大街"], null, null],
      ["B-SYQ", "Sanyuanqiao", ["三元桥"], null, null],
      ["B-T3", "Terminal 3", ["3号航站楼"], null, null],
      ["B-T2", "Terminal 2", ["2号航站楼"], null, null],
    ],
    beijingLines,
  ),
  lines: beijingLines,
  framebookVersion: "demo",
  attribution: DEMO_ATTRIBUTION,
};

const dohaLines: SystemView["lines"] = [
  { id: "red", name: "Red Line", color: "#D71A21", stations: ["D-WKR", "D-HIA", "D-OQB", "D-DAJ", "D-MSH", "D-COR", "D-WBQ", "D-KAT", "D-LEG", "D-LUS"] },
  { id: "gold", name: "Gold Line", color: "#B8860B", stations: ["D-SWQ", "D-MSH", "D-BNM", "D-SAD", "D-AZZ", "D-SPC"] },
  { id: "green", name: "Green Line", color: "#0E8A3E", stations: ["D-MSH", "D-AMS", "D-HHO", "D-EDC", "D-RIF"] },
];

export const DEMO_DOHA: SystemView = {
  id: "doha",
  orgName: "Qatar Rail",
  fullName: "Qatar Railways Company",
  primaryLanguage: "en",
  currencySymbol: "QR",
  currencyCode: "QAR",
  fareDisplayFormat: "QR X",
  terminology: { smartcard: "Travel Card", smartcard_premium: "Gold Travel Card", contactless: "Contactless payment", reduced_fare: null },
  paymentMethods: [
    { id: "travel_card", label: "Travel Card" },
    { id: "gold_travel_card", label: "Gold Travel Card" },
    { id: "contactless", label: "Contactless payment" },
  ],
  riderTypes: ["adults", "children"],
  operatingHours: { default: "05:30-23:59" },
  // Arabic local names (the real data pack has none); two stations lack coordinates.
  stations: stations(
    [
      ["D-WKR", "Al Wakra", ["الوكرة"], 25.1731, 51.6043],
      ["D-HIA", "Hamad International Airport", ["مطار حمد الدولي"], 25.2609, 51.6138],
      ["D-OQB", "Oqba Ibn Nafie", ["عقبة بن نافع"], 25.2562, 51.5531],
      ["D-DAJ", "Al Doha Al Jadeda", ["الدوحة الجديدة"], 25.2752, 51.5422],
      ["D-MSH", "Msheireb", ["مشيرب"], 25.2857, 51.5265],
      ["D-COR", "Corniche", ["الكورنيش"], 25.3050, 51.5287],
      ["D-WBQ", "West Bay Qatar Energy", ["الخليج الغربي"], 25.3217, 51.5280],
      ["D-KAT", "Katara", ["كتارا"], 25.3594, 51.5256],
      ["D-LEG", "Legtaifiya", ["لقطيفية"], 25.3739, 51.5147],
      ["D-LUS", "Lusail QNB", ["لوسيل"], 25.4196, 51.4905],
      ["D-SWQ", "Souq Waqif", ["سوق واقف"], 25.2870, 51.5335],
      ["D-BNM", "Bin Mahmoud", ["بن محمود"], 25.2821, 51.5165],
      ["D-SAD", "Al Sadd", ["السد"], 25.2846, 51.5011],
      ["D-AZZ", "Al Aziziyah", ["العزيزية"], null, null],
      ["D-SPC", "Sport City", ["المدينة الرياضية"], 25.2634, 51.4486],
      ["D-AMS", "Al Mansoura", ["المنصورة"], 25.2742, 51.5266],
      ["D-HHO", "Hamad Hospital", ["مستشفى حمد"], 25.2940, 51.5034],
      ["D-EDC", "Education City", ["المدينة التعليمية"], null, null],
      ["D-RIF", "Al Riffa", ["الرفاع"], 25.3176, 51.4190],
    ],
    dohaLines,
  ),
  lines: dohaLines,
  framebookVersion: "demo",
  attribution: DEMO_ATTRIBUTION,
};

export const DEMO_SYSTEMS: readonly SystemView[] = [DEMO_MARTA, DEMO_BEIJING, DEMO_DOHA];
