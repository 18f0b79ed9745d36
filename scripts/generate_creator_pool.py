#!/usr/bin/env python3
"""Generate the offline creator pool used by the xbench Marketing (influencer search) tasks.

Writes one Markdown page per creator to fixtures/worlds/creator-pool/<platform>/<handle>.md, in the offline world
format (YAML front matter with url, title, kind and a structured `data` mapping, then the page text).

The pool is fictional: people, handles, brands and agencies are invented for this project; only the platform
domains are real. It has two parts:

* hand-designed creators (HAND_GROUPS below): the client picks and near misses of each brief in
  evals/marketing/briefs.yaml, written so that their data makes them fit, or miss for the stated reason;
* generated creators that fill the pool up to the platform targets.

Everything is seeded: running the script twice gives byte-identical files. Each creator's numbers come from a
random stream seeded by the pool seed and the creator's handle, so editing one hand-designed creator does not
shift anybody else. Standard library only (the YAML front matter is emitted by hand, strings via json.dumps).

    python scripts/generate_creator_pool.py            # (re)write the pool
    python scripts/generate_creator_pool.py --check    # also verify the consistency rules, write nothing
    python scripts/generate_creator_pool.py --hand-table   # print the hand-designed creators per brief
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import unicodedata
from pathlib import Path

SEED = "creator-pool-2026"
ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "fixtures" / "worlds" / "creator-pool"

# Pool size per platform (about 40 % YouTube, 35 % TikTok, 25 % Instagram). Hand-designed creators count too.
PLATFORM_TARGETS = {"YouTube": 216, "TikTok": 189, "Instagram": 135}
PLATFORM_DIRS = {"YouTube": "youtube", "TikTok": "tiktok", "Instagram": "instagram"}

AGE_BUCKETS = ("13-17", "18-24", "25-34", "35-44", "45+")

# ---------------------------------------------------------------------------------------------------------------
# Platform economics. Tiers by followers; each platform has an engagement band per tier (percent; likes plus
# comments per view on recent posts), a band for avg_views / followers, and a base CPM (USD per 1,000 views) for
# its main sponsored format. The README documents these numbers; --check verifies every creator against them.
# ---------------------------------------------------------------------------------------------------------------
TIERS = (
    ("nano", 0, 10_000),
    ("micro", 10_000, 100_000),
    ("mid", 100_000, 500_000),
    ("macro", 500_000, 2_000_000),
    ("mega", 2_000_000, 10**12),
)

ER_BANDS = {
    "TikTok": {"nano": (7.0, 14.0), "micro": (5.5, 12.0), "mid": (4.5, 10.0), "macro": (3.5, 8.5), "mega": (2.8, 7.0)},
    "YouTube": {"nano": (3.5, 8.5), "micro": (3.0, 7.5), "mid": (2.5, 6.5), "macro": (2.0, 5.5), "mega": (1.5, 4.5)},
    "Instagram": {"nano": (3.0, 8.0), "micro": (2.5, 7.0), "mid": (2.0, 6.0), "macro": (1.5, 5.0), "mega": (1.0, 4.0)},
}
# Centre of the engagement rate at 10k followers and its fall per tenfold growth.
ER_CENTRE = {"TikTok": (9.5, 1.5), "YouTube": (6.0, 0.9), "Instagram": (5.5, 0.9)}

VIEW_RATIO_BANDS = {
    "YouTube": {
        "nano": (0.15, 0.9),
        "micro": (0.10, 0.6),
        "mid": (0.06, 0.4),
        "macro": (0.04, 0.3),
        "mega": (0.02, 0.2),
    },
    "TikTok": {"nano": (0.5, 4.0), "micro": (0.3, 2.0), "mid": (0.15, 1.0), "macro": (0.08, 0.6), "mega": (0.04, 0.4)},
    "Instagram": {
        "nano": (0.3, 1.5),
        "micro": (0.15, 0.9),
        "mid": (0.08, 0.5),
        "macro": (0.05, 0.35),
        "mega": (0.03, 0.25),
    },
}

BASE_CPM = {"YouTube": 22.0, "TikTok": 16.0, "Instagram": 45.0}
# Formats and their price relative to the main format (first key), as (low, high) multipliers.
RATE_FORMATS = {
    "YouTube": (("integration_60s", 1.0, 1.0), ("dedicated_video", 2.0, 2.6), ("shorts", 0.30, 0.45)),
    "TikTok": (("sponsored_video", 1.0, 1.0), ("three_video_bundle", 2.4, 2.8), ("spark_ads_30d", 0.30, 0.50)),
    "Instagram": (
        ("reel", 1.0, 1.0),
        ("carousel_post", 0.60, 0.80),
        ("story_set", 0.30, 0.45),
        ("reel_and_stories", 1.25, 1.40),
    ),
}
COMMENT_SHARE = {"YouTube": (0.04, 0.08), "TikTok": (0.015, 0.04), "Instagram": (0.02, 0.05)}
POSTS_PER_MONTH = {"YouTube": (2, 12), "TikTok": (8, 40), "Instagram": (6, 24)}

# ---------------------------------------------------------------------------------------------------------------
# Regions: languages (with weights for generated creators), the audience share of the home country, the other
# countries an audience in that language spreads to, cities, a rate multiplier and name pools.
# ---------------------------------------------------------------------------------------------------------------
REGIONS: dict[str, dict] = {
    "United States": {
        "languages": (("English", 90), ("Spanish", 10)),
        "home": (55, 78),
        "rate": 1.0,
        "abroad": ("Canada", "United Kingdom", "Australia", "India", "Philippines", "Mexico"),
        "cities": (
            "Austin, Texas",
            "Denver, Colorado",
            "Atlanta, Georgia",
            "Chicago, Illinois",
            "Phoenix, Arizona",
            "Portland, Oregon",
            "Nashville, Tennessee",
            "Columbus, Ohio",
            "Charlotte, North Carolina",
            "San Diego, California",
            "Minneapolis, Minnesota",
            "Raleigh, North Carolina",
            "Tampa, Florida",
            "Sacramento, California",
            "Salt Lake City, Utah",
            "Pittsburgh, Pennsylvania",
        ),
        "f": (
            "Ashley",
            "Brianna",
            "Caitlyn",
            "Danielle",
            "Erin",
            "Gabrielle",
            "Hailey",
            "Jasmine",
            "Kelsey",
            "Lauren",
            "Madison",
            "Natalie",
            "Paige",
            "Rachel",
            "Savannah",
            "Whitney",
            "Alicia",
            "Monica",
            "Tiana",
            "Camille",
            "Lindsey",
            "Kendra",
            "Morgan",
            "Shelby",
        ),
        "m": (
            "Austin",
            "Brandon",
            "Caleb",
            "Derek",
            "Dustin",
            "Evan",
            "Garrett",
            "Hunter",
            "Isaiah",
            "Jordan",
            "Kyle",
            "Logan",
            "Malik",
            "Nolan",
            "Preston",
            "Reggie",
            "Shane",
            "Trevor",
            "Wesley",
            "Damon",
            "Colby",
            "Jamal",
            "Spencer",
            "Cody",
        ),
        "last": (
            "Abernathy",
            "Barlowe",
            "Calloway",
            "Dunmore",
            "Ellison",
            "Fairchild",
            "Garner",
            "Hollister",
            "Ingram",
            "Jessup",
            "Kettering",
            "Lancaster",
            "Marchetti",
            "Norwood",
            "Pruitt",
            "Quarles",
            "Rutherford",
            "Sampson",
            "Tolliver",
            "Underhill",
            "Vickers",
            "Yancey",
            "Zeller",
            "Brannigan",
            "Castellano",
            "Whitmore",
            "Okonjo",
            "Delaney",
            "Sorensen",
            "Pham",
        ),
    },
    "United Kingdom": {
        "languages": (("English", 100),),
        "home": (45, 70),
        "rate": 0.95,
        "abroad": ("United States", "Ireland", "Australia", "Canada", "India"),
        "cities": (
            "Manchester",
            "Leeds",
            "Bristol",
            "Glasgow",
            "Birmingham",
            "Brighton",
            "Cardiff",
            "Edinburgh",
            "Sheffield",
            "Nottingham",
            "London",
            "Newcastle",
        ),
        "f": (
            "Amelia",
            "Bethan",
            "Ciara",
            "Ellie",
            "Freya",
            "Georgia",
            "Harriet",
            "Imogen",
            "Jess",
            "Katie",
            "Lydia",
            "Megan",
            "Niamh",
            "Orla",
            "Poppy",
            "Rosie",
            "Sian",
            "Tilly",
        ),
        "m": (
            "Alfie",
            "Callum",
            "Declan",
            "Elliot",
            "Finlay",
            "George",
            "Harvey",
            "Jamie",
            "Kieran",
            "Lewis",
            "Ollie",
            "Rhys",
            "Rory",
            "Seb",
            "Toby",
            "Will",
        ),
        "last": (
            "Ashworth",
            "Bramley",
            "Crowther",
            "Dobson",
            "Elwood",
            "Fenwick",
            "Hargreaves",
            "Illingworth",
            "Jarvis",
            "Kershaw",
            "Lockwood",
            "Mottram",
            "Northcott",
            "Oakes",
            "Pemberton",
            "Sutcliffe",
            "Thwaite",
            "Wainwright",
            "Yardley",
            "Bellamy",
        ),
    },
    "Canada": {
        "languages": (("English", 80), ("French", 20)),
        "home": (40, 58),
        "rate": 0.9,
        "abroad": ("United States", "United Kingdom", "Australia", "India"),
        "cities": (
            "Toronto, Ontario",
            "Vancouver, British Columbia",
            "Calgary, Alberta",
            "Ottawa, Ontario",
            "Halifax, Nova Scotia",
            "Winnipeg, Manitoba",
            "Edmonton, Alberta",
        ),
        "f": ("Avery", "Brooke", "Dana", "Emily", "Jenna", "Kayla", "Leah", "Mackenzie", "Nicole", "Sabrina"),
        "m": ("Aiden", "Brett", "Connor", "Dylan", "Ethan", "Gavin", "Jesse", "Mitchell", "Riley", "Tyler"),
        "last": (
            "Beaulieu",
            "Desjardins",
            "Gillis",
            "Hutchinson",
            "Kowalczyk",
            "Lachance",
            "MacKinnon",
            "Nadeau",
            "Ouellette",
            "Petrie",
            "Sandhu",
            "Thibodeau",
            "Yuen",
            "Dhaliwal",
        ),
    },
    "India": {
        "languages": (("Hindi", 55), ("English", 35), ("Tamil", 10)),
        "home": (80, 93),
        "rate": 0.35,
        "abroad": ("United Arab Emirates", "Nepal", "United States", "Saudi Arabia"),
        "cities": ("Lucknow", "Jaipur", "Patna", "Indore", "Kanpur", "Bhopal", "Delhi", "Varanasi", "Kota"),
        "f": ("Aarti", "Ananya", "Kavya", "Komal", "Megha", "Pooja", "Rashmi", "Shalini", "Swati", "Tanvi", "Nidhi"),
        "m": (
            "Abhishek",
            "Aditya",
            "Akash",
            "Deepak",
            "Gaurav",
            "Kunal",
            "Manish",
            "Mohit",
            "Sandeep",
            "Vikas",
            "Yash",
        ),
        "last": (
            "Agarwal",
            "Bhatt",
            "Chaturvedi",
            "Dubey",
            "Joshi",
            "Kushwaha",
            "Pandey",
            "Rathore",
            "Shukla",
            "Tripathi",
            "Upadhyay",
            "Awasthi",
        ),
    },
    "Indonesia": {
        "languages": (("Indonesian", 100),),
        "home": (82, 94),
        "rate": 0.35,
        "abroad": ("Malaysia", "Singapore", "Saudi Arabia", "Taiwan"),
        "cities": ("Jakarta", "Surabaya", "Bandung", "Yogyakarta", "Medan", "Semarang", "Makassar", "Denpasar"),
        "f": ("Ayu", "Dewi", "Fitri", "Intan", "Nadia", "Rani", "Sari", "Wulan", "Yuni", "Citra"),
        "m": ("Adit", "Bagus", "Eko", "Hendra", "Rizal", "Taufik", "Wahyu", "Yudi", "Galih", "Reza"),
        "last": (
            "Pratama",
            "Saputra",
            "Wijaya",
            "Kusuma",
            "Hidayat",
            "Nugroho",
            "Setiawan",
            "Purnama",
            "Santoso",
            "Siregar",
            "Lubis",
            "Harahap",
        ),
    },
    "Philippines": {
        "languages": (("Filipino", 65), ("English", 35)),
        "home": (62, 82),
        "rate": 0.35,
        "abroad": ("United States", "United Arab Emirates", "Saudi Arabia", "Canada", "Singapore"),
        "cities": ("Quezon City", "Cebu City", "Davao City", "Makati", "Pasig", "Iloilo City", "Baguio"),
        "f": ("Angelica", "Camille", "Danica", "Erika", "Kristine", "Lovely", "Mae", "Patricia", "Rica", "Trisha"),
        "m": ("Angelo", "Carlo", "Enzo", "Jerome", "Kevin", "Mark", "Nico", "Ronnie", "Jericho", "Migs"),
        "last": (
            "Bautista",
            "Castillo",
            "Domingo",
            "Fernandez",
            "Gonzales",
            "Lim",
            "Pascual",
            "Ramos",
            "Soriano",
            "Tolentino",
            "Villanueva",
            "Macaraeg",
        ),
    },
    "Brazil": {
        "languages": (("Portuguese", 100),),
        "home": (85, 95),
        "rate": 0.45,
        "abroad": ("Portugal", "United States", "Japan", "Angola"),
        "cities": (
            "São Paulo",
            "Rio de Janeiro",
            "Belo Horizonte",
            "Curitiba",
            "Recife",
            "Salvador",
            "Porto Alegre",
            "Fortaleza",
        ),
        "f": ("Ana Clara", "Camila", "Débora", "Isabela", "Larissa", "Mariana", "Natália", "Renata", "Thaís"),
        "m": ("Bruno", "Felipe", "Gustavo", "Henrique", "João Pedro", "Leonardo", "Marcelo", "Vinícius"),
        "last": (
            "Almeida",
            "Barbosa",
            "Cardoso",
            "Dias",
            "Freitas",
            "Gomes",
            "Lopes",
            "Monteiro",
            "Nunes",
            "Pereira",
            "Rocha",
            "Siqueira",
        ),
    },
    "Mexico": {
        "languages": (("Spanish", 100),),
        "home": (55, 75),
        "rate": 0.5,
        "abroad": ("United States", "Colombia", "Guatemala", "Argentina", "Spain"),
        "cities": ("Ciudad de México", "Guadalajara", "Monterrey", "Puebla", "Querétaro", "Mérida", "Tijuana"),
        "f": ("Alejandra", "Andrea", "Itzel", "Ximena", "Paola", "Regina", "Valeria", "Montserrat"),
        "m": ("Alejandro", "Emiliano", "Jorge", "Luis", "Mauricio", "Santiago", "Sebastián", "Ulises"),
        "last": (
            "Aguilar",
            "Cervantes",
            "Domínguez",
            "Escobedo",
            "Fuentes",
            "Guerrero",
            "Jiménez",
            "Lozano",
            "Maldonado",
            "Quintero",
            "Salinas",
            "Villaseñor",
        ),
    },
    "Germany": {
        "languages": (("German", 100),),
        "home": (60, 78),
        "rate": 0.9,
        "abroad": ("Austria", "Switzerland", "Netherlands", "Luxembourg"),
        "cities": ("Berlin", "Hamburg", "München", "Köln", "Leipzig", "Stuttgart", "Frankfurt", "Dresden"),
        "f": ("Carina", "Jana", "Johanna", "Miriam", "Nele", "Svenja", "Theresa", "Annika"),
        "m": ("Benedikt", "Dominik", "Fabian", "Florian", "Lukas", "Moritz", "Niklas", "Philipp"),
        "last": (
            "Bauer",
            "Engel",
            "Friedrich",
            "Graf",
            "Hahn",
            "Lorenz",
            "Maurer",
            "Pohl",
            "Schuster",
            "Seidel",
            "Winkler",
            "Ziegler",
        ),
    },
    "France": {
        "languages": (("French", 100),),
        "home": (60, 78),
        "rate": 0.85,
        "abroad": ("Belgium", "Switzerland", "Canada", "Morocco"),
        "cities": ("Paris", "Lyon", "Marseille", "Bordeaux", "Toulouse", "Lille", "Nantes", "Grenoble"),
        "f": ("Anaïs", "Chloé", "Clémence", "Élise", "Juliette", "Manon", "Mathilde", "Océane", "Pauline"),
        "m": ("Adrien", "Baptiste", "Clément", "Hugo", "Maxime", "Nicolas", "Romain", "Valentin"),
        "last": (
            "Aubert",
            "Barbier",
            "Chevalier",
            "Dumas",
            "Fontaine",
            "Garnier",
            "Lambert",
            "Leroy",
            "Mercier",
            "Perrin",
            "Renaud",
            "Vasseur",
        ),
    },
    "Japan": {
        "languages": (("Japanese", 100),),
        "home": (82, 94),
        "rate": 0.9,
        "abroad": ("Taiwan", "United States", "South Korea", "Hong Kong"),
        "cities": ("Tokyo", "Osaka", "Fukuoka", "Sapporo", "Nagoya", "Kyoto", "Yokohama"),
        "f": ("Ayaka", "Chihiro", "Kaori", "Mio", "Saki", "Yui", "Airi", "Momoka"),
        "m": ("Daiki", "Haruto", "Kota", "Shota", "Yuto", "Sho", "Riku", "Kazuki"),
        "last": (
            "Aoki",
            "Fujita",
            "Hayashi",
            "Ishikawa",
            "Kondo",
            "Matsuda",
            "Nishimura",
            "Ogawa",
            "Sakamoto",
            "Tamura",
            "Ueda",
            "Yamaguchi",
        ),
    },
    "South Korea": {
        "languages": (("Korean", 100),),
        "home": (65, 85),
        "rate": 0.85,
        "family_first": True,
        "abroad": ("United States", "Japan", "Vietnam", "Philippines"),
        "cities": ("Seoul", "Busan", "Incheon", "Daegu", "Daejeon", "Gwangju"),
        "f": ("Soo-ah", "Ha-eun", "Da-in", "Chae-won", "Yu-jin", "Seo-hyun", "Min-seo", "Eun-bi"),
        "m": ("Do-hyun", "Min-jun", "Ji-ho", "Hyun-woo", "Jun-young", "Woo-jin", "Sung-min", "Jae-won"),
        "last": ("Kim", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Han", "Shin", "Seo"),
    },
    "Australia": {
        "languages": (("English", 100),),
        "home": (48, 68),
        "rate": 0.95,
        "abroad": ("New Zealand", "United States", "United Kingdom", "Canada"),
        "cities": ("Melbourne", "Sydney", "Brisbane", "Perth", "Adelaide", "Hobart", "Gold Coast"),
        "f": ("Ashleigh", "Chelsea", "Georgie", "Jade", "Kirra", "Matilda", "Tahlia", "Zoe"),
        "m": ("Bailey", "Cooper", "Darcy", "Fletcher", "Harrison", "Lachlan", "Mitchell", "Tom"),
        "last": (
            "Ackland",
            "Birtles",
            "Cavanagh",
            "Fitzroy",
            "Hennessy",
            "McAlister",
            "Prowse",
            "Rafferty",
            "Stubbs",
            "Trengove",
        ),
    },
    "Nigeria": {
        "languages": (("English", 100),),
        "home": (55, 75),
        "rate": 0.35,
        "abroad": ("Ghana", "United States", "United Kingdom", "Kenya", "South Africa"),
        "cities": ("Lagos", "Abuja", "Port Harcourt", "Ibadan", "Enugu", "Benin City"),
        "f": ("Amaka", "Bisola", "Chiamaka", "Folake", "Ifeoma", "Kemi", "Ngozi", "Temitope", "Zainab"),
        "m": ("Chidi", "Damilola", "Femi", "Ikenna", "Kunle", "Segun", "Tunde", "Uche", "Yusuf"),
        "last": (
            "Afolabi",
            "Balogun",
            "Chukwu",
            "Ogunleye",
            "Olawale",
            "Onyeka",
            "Oyelaran",
            "Uzor",
            "Bello",
            "Danjuma",
        ),
    },
    "Spain": {
        "languages": (("Spanish", 100),),
        "home": (45, 65),
        "rate": 0.7,
        "abroad": ("Mexico", "Argentina", "Colombia", "United States", "Chile"),
        "cities": ("Madrid", "Barcelona", "Valencia", "Sevilla", "Málaga", "Bilbao", "Zaragoza"),
        "f": ("Alba", "Carla", "Elena", "Inés", "Nerea", "Paula", "Sara", "Noelia"),
        "m": ("Adrián", "Carlos", "Daniel", "Iker", "Javier", "Marcos", "Sergio", "Unai"),
        "last": (
            "Arroyo",
            "Blanco",
            "Cano",
            "Esteban",
            "Gallego",
            "Lozano",
            "Molina",
            "Prieto",
            "Rubio",
            "Soto",
            "Vega",
            "Calvo",
        ),
    },
    "Vietnam": {
        "languages": (("Vietnamese", 100),),
        "home": (85, 95),
        "rate": 0.3,
        "family_first": True,
        "abroad": ("United States", "Australia", "Japan", "South Korea", "Taiwan"),
        "cities": ("Hà Nội", "TP. Hồ Chí Minh", "Đà Nẵng", "Hải Phòng", "Cần Thơ"),
        "f": ("Thu Hà", "Ngọc Anh", "Minh Thư", "Khánh Linh", "Bảo Ngọc", "Thanh Hương", "Mai Phương"),
        "m": ("Đức Anh", "Minh Quân", "Quang Huy", "Hoàng Nam", "Tuấn Kiệt", "Văn Long", "Gia Bảo"),
        "last": ("Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Vũ", "Đặng", "Bùi", "Đỗ", "Ngô"),
    },
    "Thailand": {
        "languages": (("Thai", 100),),
        "home": (82, 94),
        "rate": 0.35,
        "abroad": ("Laos", "Myanmar", "Cambodia", "Japan", "United States"),
        "cities": ("Bangkok", "Chiang Mai", "Khon Kaen", "Phuket", "Hat Yai", "Nakhon Ratchasima"),
        "f": ("Fah", "Mint", "Pim", "Nok", "Kanya", "Siriporn", "Nattaya", "Wanida"),
        "m": ("Arthit", "Kittisak", "Nattapong", "Somchai", "Thanakorn", "Wichai", "Pakorn", "Anan"),
        "last": ("Chaiyasit", "Kaewmanee", "Rattanakul", "Saetang", "Thongdee", "Jaidee", "Sukprasert", "Inthanon"),
    },
    "Turkey": {
        "languages": (("Turkish", 100),),
        "home": (75, 90),
        "rate": 0.45,
        "abroad": ("Germany", "Azerbaijan", "Netherlands", "France"),
        "cities": ("İstanbul", "Ankara", "İzmir", "Bursa", "Antalya", "Eskişehir"),
        "f": ("Ayşe", "Büşra", "Ceren", "Ece", "Elif", "Gizem", "Melis", "Zeynep", "Derya"),
        "m": ("Ahmet", "Barış", "Cem", "Kerem", "Murat", "Onur", "Tolga", "Umut"),
        "last": ("Acar", "Aksoy", "Bulut", "Doğan", "Erdem", "Güneş", "Karaca", "Kılıç", "Korkmaz", "Polat", "Yavuz"),
    },
}

# Language-specific overrides of the audience spread, cities and names inside a region.
LANGUAGE_VARIANTS: dict[tuple[str, str], dict] = {
    ("United States", "Spanish"): {
        "home": (42, 60),
        "abroad": ("Mexico", "Colombia", "Argentina", "Spain"),
        "cities": ("Houston, Texas", "Los Angeles, California", "Miami, Florida", "San Antonio, Texas"),
        "f": ("Yesenia", "Marisol", "Daniela", "Gabriela"),
        "m": ("Javier", "Andrés", "Mateo", "Luis"),
        "last": ("Arellano", "Villarreal", "Camacho", "Ochoa", "Zamora", "Beltrán"),
    },
    ("Canada", "French"): {
        "home": (52, 70),
        "abroad": ("France", "Belgium", "Switzerland", "United States"),
        "cities": ("Montréal, Québec", "Québec City", "Sherbrooke, Québec", "Gatineau, Québec"),
        "f": ("Geneviève", "Isabelle", "Marie-Ève", "Audrey", "Catherine"),
        "m": ("Olivier", "Mathieu", "Félix", "Étienne", "Samuel"),
        "last": ("Bouchard", "Côté", "Lavoie", "Gauthier", "Leblanc", "Fortin"),
    },
    ("India", "English"): {
        "home": (58, 78),
        "abroad": ("United States", "United Arab Emirates", "United Kingdom", "Canada", "Singapore"),
        "cities": ("Bengaluru", "Mumbai", "Pune", "Hyderabad", "Gurugram", "Kolkata"),
        "f": ("Aditi", "Ishita", "Nandini", "Riya", "Sanya", "Tara"),
        "m": ("Arjun", "Nikhil", "Rohan", "Siddharth", "Varun", "Kabir"),
        "last": ("Iyer", "Mehta", "Menon", "Nair", "Rao", "Sethi", "D'Souza", "Fernandes", "Bose"),
    },
    ("India", "Tamil"): {
        "home": (72, 88),
        "abroad": ("Sri Lanka", "Malaysia", "Singapore", "United Arab Emirates"),
        "cities": ("Chennai", "Coimbatore", "Madurai", "Tiruchirappalli"),
        "f": ("Divya", "Keerthana", "Lakshmi", "Priya"),
        "m": ("Karthik", "Arun", "Vignesh", "Senthil"),
        "last": ("Subramanian", "Krishnan", "Murugan", "Venkatesh", "Raghavan"),
    },
    ("Philippines", "English"): {"home": (58, 76)},
}

# Full names that must never be generated (famous people), checked after a name is drawn.
NAME_BLOCKLIST = {"Lee Tae-min", "Park Seo-jun", "Kim Yu-jin", "Jang Won-young"}

CURRENCY_NOTE = {
    "India": "INR",
    "Indonesia": "IDR",
    "Philippines": "PHP",
    "Brazil": "BRL",
    "Mexico": "MXN",
    "Germany": "EUR",
    "France": "EUR",
    "Spain": "EUR",
    "Japan": "JPY",
    "South Korea": "KRW",
    "Australia": "AUD",
    "Canada": "CAD",
    "United Kingdom": "GBP",
    "Nigeria": "NGN",
    "Vietnam": "VND",
    "Thailand": "THB",
    "Turkey": "TRY",
}

AGENCIES = {
    "United States": ("Brightline Talent", "Kestrel & Co. Management", "Lumen Creator Group", "Tall Pines Talent"),
    "United Kingdom": ("Northwind Talent", "Harbour & Hale Management", "Spindle Creator Agency"),
    "Canada": ("Maple Talent House", "Northern Current Management"),
    "India": ("Saffron Creator Network", "Kite Talent (Mumbai)", "Pehchaan Management"),
    "Indonesia": ("Garuda Creators", "Nusantara Talent Hub"),
    "Philippines": ("Papaya Talent", "Bayanihan Creators"),
    "Brazil": ("Ipê Talentos", "Caju Creators"),
    "Mexico": ("Nopal Talent", "Agencia Jacaranda"),
    "Germany": ("Blauer Hafen Management", "Kranich Talents"),
    "France": ("Maison Lueur Talents", "Atelier Créateurs"),
    "Japan": ("Tsubame Creators", "Hoshizora Management"),
    "South Korea": ("Bora Creator Lab", "Haneul Partners"),
    "Australia": ("Southerly Talent", "Wattle Talent Co"),
    "Nigeria": ("Lagoon Talent", "Ember Creator Collective"),
    "Spain": ("Olivo Talent", "Agencia Marea"),
    "Vietnam": ("Sen Creator Network",),
    "Thailand": ("Lotus Lane Talent",),
    "Turkey": ("Lale Yetenek Yönetimi", "Boğaz Creators"),
}

# ---------------------------------------------------------------------------------------------------------------
# Brands (all invented) by category, with the label used in page text.
# ---------------------------------------------------------------------------------------------------------------
BRANDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "finance_app": ("budgeting app", ("Budgetwren", "Ledgerloop", "Tallyhaven", "Pocketmoor", "Centwise Money")),
    "bank": ("digital bank", ("Brightvault Bank", "Fernleaf Credit", "Savoria Bank", "Plenapay", "Harborline Card")),
    "invest": ("investing app", ("Stackwell", "Nestwise Invest", "Coinvale", "Oakridge Index", "Quarry Invest")),
    "tax": ("tax software", ("Filemint", "Taxlark")),
    "crypto": ("crypto exchange", ("Blockharbor", "Chainmoss Exchange", "Tokenfield", "Hashvale", "Ledgerstone")),
    "tech": (
        "consumer electronics brand",
        ("Voltique", "Nordlume", "Arcwave Audio", "Pixelmint", "Halvard Devices", "Zentrix", "Lumora Labs"),
    ),
    "software": ("software company", ("Cloudnest Storage", "Shieldway VPN", "Quillon Notes", "Corelink Mesh Wi-Fi")),
    "beauty": (
        "beauty brand",
        ("Dewlane", "Petalform", "Solenne Skin", "Mirabloom", "Velvetine Cosmetics", "Koa Glow", "Lunaire", "Rosewick"),
    ),
    "food": ("food brand", ("Saltgrove", "Umamiya", "Greenplate", "Brothwell", "Crumbhouse", "Spicetrail")),
    "meal_kit": ("meal kit", ("Hearthbox Meals", "Forkful Kitchen", "Pantry Parade")),
    "fitness": (
        "fitness brand",
        ("Ironleaf", "Strideform", "Pulsewell", "Corevia", "Liftlane Apparel", "Hydrafuel", "Motionly"),
    ),
    "gaming": (
        "game studio",
        (
            "Nebula Forge Games",
            "Pixelhowl Studio",
            "Starhollow Games",
            "Frostpine Interactive",
            "Hexcrown",
            "Quantum Gnome",
        ),
    ),
    "peripherals": ("gaming peripherals brand", ("Riftcore", "Byteblade", "Omnikey")),
    "travel": (
        "travel brand",
        ("Wanderlark", "Roamwell Luggage", "Nomadia eSIM", "Farpoint Stays", "Tidepath Tours", "Atlasia Insurance"),
    ),
    "parenting": ("baby and kids brand", ("Littlenest", "Cuddlebee", "Tinyroots Organic", "Bramblebaby", "Snugwell")),
    "education": ("edtech company", ("Quizzle", "Studyhive", "Notewise", "Brainmint", "Lumen Tutors", "Mathmeadow")),
    "productivity": (
        "productivity app",
        ("Taskwell", "Focusmoss", "Planora", "Inkling Notes", "Deskward", "Timecraft"),
    ),
    "fashion": (
        "fashion brand",
        ("Threadwell", "Marlowe & Finch", "Veyra Studio", "Loomline", "Cotton Quarry", "Sable Row"),
    ),
    "home": ("home brand", ("Hearthline", "Toolnest", "Paintwell", "Nookcraft", "Brickwell Tools", "Casa Lumen")),
    "pets": (
        "pet brand",
        ("Wagwell", "Whiskerly", "Furrow Pet Supply", "Barkbright", "Tailhaven Insurance", "Kibblecraft"),
    ),
    "outdoor": ("outdoor brand", ("Cairnward", "Summitree", "Pinehollow Outfitters", "Trailwren", "Fjellmark")),
    "music": ("music brand", ("Chordwell", "Tonequill Strings", "Resonance Lab", "Beatloft", "Hollowbody Amps")),
    "language": ("language app", ("Lexora", "Parlanza", "Wordwise", "Tandemly", "Lingualeaf")),
    "health": ("wellness brand", ("Calmora", "Restwell", "Nutrimeadow", "Vitawren", "Sleepfold", "Heartwise Labs")),
    "snacks": ("snack and drink brand", ("Snackwave", "Fizzbolt", "Crunchcraft", "Brewlight Coffee")),
    "delivery": ("delivery app", ("Quickcart", "Zapmeal", "Dashbasket")),
    "mobile": ("mobile carrier", ("Glintmobile", "Orbitel", "Skyreach Mobile")),
}

# ---------------------------------------------------------------------------------------------------------------
# Niches: sub-niches, audience age base (13-17, 18-24, 25-34, 35-44, 45+), female share base, CPM and engagement
# multipliers, platform affinity (YouTube, TikTok, Instagram), share of female creators, handle words, content
# styles, audience flavours, earlier jobs, title templates, title fillers and brand categories.
# ---------------------------------------------------------------------------------------------------------------
NICHES: dict[str, dict] = {
    "personal finance": {
        "label": "personal finance",
        "age": (3, 24, 40, 21, 12),
        "female": 44,
        "cpm": 1.5,
        "er": 0.95,
        "plat": (1.2, 1.0, 0.6),
        "creator_f": 0.55,
        "subs": (
            "budgeting",
            "debt payoff",
            "saving",
            "investing basics",
            "credit scores",
            "side hustles",
            "frugal living",
            "paycheck breakdowns",
            "student loans",
            "retirement basics",
        ),
        "words": ("money", "budgets", "cents", "saves", "wealth", "pennies", "finance", "dollars"),
        "styles": (
            "screen-share budget walk-throughs",
            "monthly net-worth updates",
            "paycheck breakdowns",
            "whiteboard explainers",
            "debt-payoff progress videos",
            "no-spend challenge diaries",
            "reaction videos to viewers' spending",
            "myth-busting shorts about credit",
        ),
        "flavor": (
            "renters and first-time budgeters",
            "people in their first full-time job",
            "couples merging finances",
            "viewers paying down credit-card debt",
        ),
        "jobs": (
            "a bank teller",
            "a payroll clerk",
            "a high-school maths teacher",
            "an accountant",
            "a retail store manager",
        ),
        "titles": (
            "I paid off {k}k of debt in {n} months - the exact plan",
            "{month} budget with me",
            "5 money habits I quit in my 20s",
            "Zero-based budgeting for beginners (free template)",
            "What I spend in a week living in {city}",
            "High-yield savings explained in {n} minutes",
            "Paycheck breakdown: {item} edition",
            "Why your emergency fund is too small",
            "Sinking funds: how I stopped dreading {month}",
            "Rating my subscribers' budgets",
            "The {n}-envelope system, one year later",
            "Credit score myths that cost you money",
        ),
        "items": ("nurse", "barista", "junior developer", "teacher", "warehouse lead", "first job"),
        "brands": ("finance_app", "bank", "invest", "tax", "software"),
    },
    "fitness": {
        "label": "fitness",
        "age": (5, 30, 37, 18, 10),
        "female": 55,
        "cpm": 1.1,
        "er": 1.0,
        "plat": (0.8, 1.0, 1.3),
        "creator_f": 0.6,
        "subs": (
            "home workouts",
            "HIIT",
            "strength training",
            "pilates",
            "running",
            "mobility",
            "yoga",
            "calisthenics",
            "bodybuilding",
            "postpartum fitness",
            "kettlebells",
        ),
        "words": ("lifts", "fit", "moves", "strong", "sweat", "reps", "trains", "active"),
        "styles": (
            "follow-along workouts with a timer on screen",
            "form-check breakdowns",
            "week-of-training vlogs",
            "15-second exercise demos",
            "myth-busting about cardio",
            "progress updates with honest numbers",
            "beginner programs in 4-week blocks",
        ),
        "flavor": (
            "busy people training at home",
            "beginners who feel awkward in gyms",
            "people coming back to exercise after a break",
            "gym regulars chasing strength numbers",
        ),
        "jobs": ("a personal trainer", "a physiotherapy assistant", "a PE teacher", "a group-class instructor"),
        "titles": (
            "{n}-minute full body workout, no equipment",
            "I trained like a beginner for {n} weeks",
            "Fix your squat in {n} cues",
            "What I eat in a training day",
            "Low-impact cardio for small flats",
            "Day {n2} of my strength challenge",
            "Beginner dumbbell plan (week {n})",
            "Stretch with me before bed",
            "The only {n} core moves I still do",
            "Kettlebell flow for busy mornings",
        ),
        "items": ("dumbbells", "resistance bands", "kettlebell", "yoga mat"),
        "brands": ("fitness", "health", "snacks", "mobile"),
    },
    "beauty": {
        "label": "beauty",
        "age": (10, 36, 32, 14, 8),
        "female": 78,
        "cpm": 1.15,
        "er": 1.05,
        "plat": (0.7, 1.1, 1.4),
        "creator_f": 0.88,
        "subs": (
            "skincare",
            "drugstore makeup",
            "makeup tutorials",
            "hair care",
            "nail art",
            "fragrance",
            "skin barrier",
            "acne",
            "mature skin",
        ),
        "words": ("glow", "beauty", "glam", "skin", "blush", "lash", "dewy", "faces"),
        "styles": (
            "get-ready-with-me videos",
            "first-impression reviews",
            "routine breakdowns with product lists",
            "before-and-after transformations",
            "swatch comparisons",
            "ingredient explainers",
            "empties and repurchase rounds",
        ),
        "flavor": (
            "skincare beginners on a budget",
            "women who want quick everyday looks",
            "people dealing with acne or sensitive skin",
            "makeup lovers who follow launches",
        ),
        "jobs": ("a makeup counter artist", "an esthetician", "a pharmacy assistant", "a bridal makeup artist"),
        "titles": (
            "GRWM: {n}-minute everyday look",
            "I tried viral {item} for {n} days",
            "Drugstore vs high-end: {item} edition",
            "My night routine for {item}",
            "Empties: what I'd repurchase",
            "Full face of products under $10",
            "Testing {n} {item}s on oily skin",
            "Skin barrier reset, week {n}",
            "Makeup for humid weather in {city}",
            "Ranking every {item} I own",
        ),
        "items": ("sunscreen", "serum", "concealer", "blush", "lip tint", "moisturizer", "toner"),
        "brands": ("beauty", "fashion", "health", "snacks"),
    },
    "gaming": {
        "label": "gaming",
        "age": (18, 40, 28, 10, 4),
        "female": 20,
        "cpm": 0.95,
        "er": 1.0,
        "plat": (1.6, 1.0, 0.3),
        "creator_f": 0.25,
        "subs": (
            "mobile gaming",
            "PC gaming",
            "console gaming",
            "RPGs",
            "gacha games",
            "MOBA",
            "shooters",
            "strategy games",
            "indie games",
            "speedruns",
            "live streams",
        ),
        "words": ("plays", "gaming", "gg", "games", "pixels", "quest", "respawn", "loot"),
        "styles": (
            "full playthroughs",
            "tier lists",
            "patch-note breakdowns",
            "funny-moment compilations",
            "beginner guides",
            "live-stream highlights",
            "challenge runs",
            "first-look reviews",
        ),
        "flavor": (
            "core gamers who watch long videos",
            "mobile players looking for tips",
            "viewers who follow launches",
            "stream regulars who join in chat",
        ),
        "jobs": ("a game-store clerk", "a QA tester", "an esports coach", "a computer-science student"),
        "titles": (
            "Tier list after patch {n}.{n2}",
            "I played {item} for {n2} hours",
            "{n} beginner mistakes in {item}",
            "Best team comp for new players",
            "Is {item} worth it in {year}?",
            "Speedrun attempt #{n2}",
            "Free-to-play guide: week {n}",
            "Reacting to the {item} trailer",
            "Ranked to the top in {n} days",
            "Building the strongest {item} character",
        ),
        "items": ("Starhollow Saga", "Riftbound Legends", "Crimson Tides", "Hexfall Arena", "Pocket Kingdoms"),
        "brands": ("gaming", "peripherals", "snacks", "software", "mobile"),
    },
    "tech reviews": {
        "label": "tech",
        "age": (8, 32, 34, 17, 9),
        "female": 22,
        "cpm": 1.3,
        "er": 0.9,
        "plat": (1.6, 0.8, 0.4),
        "creator_f": 0.25,
        "subs": (
            "smartphones",
            "laptops",
            "audio",
            "smart home",
            "PC builds",
            "wearables",
            "cameras",
            "budget tech",
            "apps and software",
        ),
        "words": ("tech", "unboxed", "gadgets", "bytes", "specs", "reviews", "circuit"),
        "styles": (
            "long-term reviews",
            "side-by-side comparisons",
            "unboxings",
            "teardown explainers",
            "buying guides",
            "camera tests in real conditions",
            "desk-setup tours",
        ),
        "flavor": (
            "people researching a purchase",
            "budget buyers",
            "enthusiasts who want benchmarks",
            "students choosing a first laptop",
        ),
        "jobs": ("a phone-repair technician", "an IT support engineer", "an electronics retail salesperson"),
        "titles": (
            "{item} review after {n} weeks",
            "Best budget {item} in {year}",
            "{item} vs {item2}: which to buy",
            "Don't buy a {item} before watching this",
            "My {year} desk setup",
            "I switched phones for {n} days",
            "Battery test: {n} hours of real use",
            "Unboxing the Halvard Nova {n}",
            "Smart home on a budget",
            "{n} apps I use every day",
        ),
        "items": (
            "laptop",
            "phone",
            "smartwatch",
            "tablet",
            "mechanical keyboard",
            "budget camera",
            "wireless headset",
        ),
        "brands": ("tech", "software", "mobile", "peripherals"),
    },
    "food": {
        "label": "food",
        "age": (5, 24, 32, 21, 18),
        "female": 58,
        "cpm": 1.0,
        "er": 1.05,
        "plat": (1.0, 1.1, 1.1),
        "creator_f": 0.6,
        "subs": (
            "home cooking",
            "meal prep",
            "baking",
            "street food",
            "budget meals",
            "vegetarian",
            "restaurant reviews",
            "family dinners",
            "bento",
        ),
        "words": ("eats", "kitchen", "cooks", "bakes", "table", "bites", "spoon"),
        "styles": (
            "one-pan recipes",
            "weekly meal-prep sessions",
            "street-food tours",
            "cook-along videos",
            "overhead recipe reels",
            "taste tests",
            "budget grocery hauls",
        ),
        "flavor": (
            "home cooks feeding a family",
            "students cooking on a budget",
            "food lovers planning trips",
            "people trying to cook more and order less",
        ),
        "jobs": ("a line cook", "a catering assistant", "a pastry apprentice", "a food-science student"),
        "titles": (
            "{n} dinners for the week in one hour",
            "Cheapest {item} in {city}",
            "My grandmother's {item}",
            "Meal prep for {n} days under $40",
            "I ate only {item} for a day",
            "{n}-ingredient {item}",
            "Street food tour: {city}",
            "Fixing common {item} mistakes",
            "Pantry clean-out dinner",
            "Weeknight {item} in {n} minutes",
        ),
        "items": ("curry", "fried rice", "noodles", "soup", "bread", "dumplings", "pasta", "stew", "salad"),
        "brands": ("food", "meal_kit", "delivery", "home", "snacks"),
    },
    "travel": {
        "label": "travel",
        "age": (3, 24, 36, 21, 16),
        "female": 56,
        "cpm": 1.05,
        "er": 0.95,
        "plat": (1.0, 0.8, 1.3),
        "creator_f": 0.55,
        "subs": (
            "budget travel",
            "city breaks",
            "van life",
            "rail travel",
            "luxury travel",
            "family travel",
            "solo travel",
            "digital nomad life",
            "island hopping",
        ),
        "words": ("travels", "roams", "wanders", "passport", "trips", "abroad", "journeys"),
        "styles": (
            "cinematic destination films",
            "itinerary breakdowns with costs",
            "honest hotel reviews",
            "packing guides",
            "day-in-the-life vlogs on the road",
            "how-much-it-cost recaps",
        ),
        "flavor": (
            "people planning their next holiday",
            "budget backpackers",
            "couples taking city breaks",
            "families travelling with kids",
        ),
        "jobs": ("a flight attendant", "a tour guide", "a hotel receptionist", "a geography teacher"),
        "titles": (
            "{n} days in {place}: full itinerary",
            "How much {place} really cost",
            "Night train to {place}",
            "Packing for {n} weeks in a carry-on",
            "{place} on a budget",
            "Hidden beaches near {place}",
            "Why I left {city} to travel",
            "Travel day vlog: {n} flights",
            "Weekend in {place} for under $300",
            "Tourist traps in {place} to skip",
        ),
        "items": ("hostel", "rail pass", "carry-on"),
        "places": (
            "Lisbon",
            "Hokkaido",
            "Bali",
            "Oaxaca",
            "the Dolomites",
            "Cappadocia",
            "Da Nang",
            "Krakow",
            "Tasmania",
            "Cartagena",
            "Seville",
            "Chiang Mai",
        ),
        "brands": ("travel", "mobile", "bank", "outdoor"),
    },
    "parenting": {
        "label": "parenting",
        "age": (1, 12, 48, 30, 9),
        "female": 75,
        "cpm": 1.15,
        "er": 1.0,
        "plat": (0.7, 1.0, 1.3),
        "creator_f": 0.8,
        "subs": (
            "newborn care",
            "toddler activities",
            "baby food",
            "pregnancy",
            "sleep routines",
            "family vlogs",
            "dad life",
            "homeschooling",
        ),
        "words": ("mama", "family", "littles", "parent", "nest", "bumps", "kiddos"),
        "styles": (
            "day-in-the-life family vlogs",
            "honest product reviews",
            "toddler activity ideas",
            "pregnancy updates",
            "myth-busting with health professionals",
            "routine charts",
        ),
        "flavor": ("first-time parents", "parents of toddlers", "expecting mums", "families with school-age kids"),
        "jobs": ("a nursery teacher", "a midwife", "a paediatric nurse", "a primary-school teacher"),
        "titles": (
            "Our newborn's first {n} weeks",
            "Toddler activities for rainy days",
            "What my {n}-year-old eats",
            "Baby-led weaning: week {n}",
            "Hospital bag checklist",
            "Sleep regression survival guide",
            "Morning routine with {n} kids",
            "Things I wish I knew before baby",
            "{n} toys we actually use",
            "Honest review: {item}",
        ),
        "items": ("baby carrier", "stroller", "high chair", "bottle warmer"),
        "brands": ("parenting", "food", "home", "health"),
    },
    "education": {
        "label": "education",
        "age": (26, 46, 18, 6, 4),
        "female": 55,
        "cpm": 1.0,
        "er": 1.0,
        "plat": (1.4, 1.0, 0.6),
        "creator_f": 0.5,
        "subs": (
            "exam prep",
            "study with me",
            "science explainers",
            "maths",
            "study tips",
            "university life",
            "history",
            "coding for beginners",
        ),
        "words": ("study", "learns", "notes", "class", "tutor", "academy", "lab"),
        "styles": (
            "whiteboard explainers",
            "study-with-me sessions",
            "exam strategy videos",
            "revision notes walk-throughs",
            "solved-problem marathons",
            "student vlogs",
        ),
        "flavor": (
            "high-school students preparing for exams",
            "university students",
            "self-learners",
            "students revising at night",
        ),
        "jobs": ("a tuition teacher", "a university tutor", "a lab assistant", "a school teacher"),
        "titles": (
            "{item} in {n} minutes",
            "How I studied for {item}",
            "Solve {n2} questions with me",
            "Revision timetable for the last {n} weeks",
            "Study with me: {n} hours",
            "Top {n} mistakes in {item}",
            "Exam-day routine",
            "Why you forget what you study",
            "Full chapter: {item}",
            "Note-taking method that finally worked",
        ),
        "items": ("organic chemistry", "calculus", "cell biology", "electrostatics", "world history", "Python basics"),
        "brands": ("education", "productivity", "tech", "software"),
    },
    "productivity": {
        "label": "productivity",
        "age": (8, 38, 34, 14, 6),
        "female": 48,
        "cpm": 1.2,
        "er": 0.95,
        "plat": (1.3, 0.8, 0.7),
        "creator_f": 0.5,
        "subs": (
            "note-taking",
            "planning",
            "time blocking",
            "deep work",
            "digital minimalism",
            "habit tracking",
            "remote work",
        ),
        "words": ("focus", "plans", "desk", "notes", "flow", "organised"),
        "styles": (
            "workflow walk-throughs",
            "app comparisons",
            "weekly-planning sessions",
            "desk and setup tours",
            "habit experiments",
            "calm talking-head essays",
        ),
        "flavor": (
            "students juggling deadlines",
            "knowledge workers",
            "freelancers",
            "people trying to use their phone less",
        ),
        "jobs": ("a project manager", "a software engineer", "a consultant", "a graduate researcher"),
        "titles": (
            "My weekly review in {n} steps",
            "I tried time blocking for {n} days",
            "How I take notes in {year}",
            "Plan with me: {month}",
            "The {n} apps I deleted",
            "Deep work routine for busy weeks",
            "Desk setup tour {year}",
            "Why to-do lists fail",
            "A calmer way to plan",
            "Digital declutter, day {n}",
        ),
        "items": ("planner", "notes app"),
        "brands": ("productivity", "software", "tech", "education"),
    },
    "fashion": {
        "label": "fashion",
        "age": (9, 38, 33, 13, 7),
        "female": 72,
        "cpm": 1.05,
        "er": 1.0,
        "plat": (0.5, 1.0, 1.5),
        "creator_f": 0.8,
        "subs": (
            "outfit ideas",
            "thrifting",
            "capsule wardrobe",
            "modest fashion",
            "streetwear",
            "plus-size style",
            "workwear",
        ),
        "words": ("style", "wears", "closet", "outfits", "threads", "fits"),
        "styles": (
            "outfit-of-the-day reels",
            "try-on hauls",
            "styling one piece five ways",
            "thrift flips",
            "capsule wardrobe planning",
            "mirror transitions",
        ),
        "flavor": ("young women building a wardrobe", "budget shoppers", "office workers", "thrift lovers"),
        "jobs": ("a retail stylist", "a fashion student", "a visual merchandiser"),
        "titles": (
            "Styling one {item} {n} ways",
            "Try-on haul: {month}",
            "Capsule wardrobe for {city}",
            "Thrift with me",
            "{n} outfits for work",
            "What I wore this week",
            "Closet clean-out",
            "Rating my old outfits",
            "Modest summer looks",
            "Fits under $50",
        ),
        "items": ("blazer", "white shirt", "linen dress", "denim jacket", "slip skirt"),
        "brands": ("fashion", "beauty", "snacks"),
    },
    "home & DIY": {
        "label": "home and DIY",
        "age": (2, 16, 34, 26, 22),
        "female": 62,
        "cpm": 1.1,
        "er": 1.0,
        "plat": (0.9, 0.9, 1.2),
        "creator_f": 0.6,
        "subs": (
            "home decor",
            "renter-friendly upgrades",
            "furniture flips",
            "organisation",
            "renovation",
            "gardening",
            "cleaning",
        ),
        "words": ("home", "nest", "builds", "makes", "fixes", "house", "nook"),
        "styles": (
            "before-and-after makeovers",
            "renovation diaries",
            "budget decor ideas",
            "cleaning routines",
            "tool tutorials",
            "room tours",
        ),
        "flavor": ("renters decorating on a budget", "first-time homeowners", "weekend DIYers", "organisation fans"),
        "jobs": ("a carpenter", "an interior-design student", "a property manager", "a set builder"),
        "titles": (
            "Small {item} makeover for under $200",
            "Renter-friendly {item} upgrade",
            "Flipping a thrifted {thing}",
            "Organise my {item} with me",
            "Reno diary: week {n}",
            "{n} decor mistakes",
            "Room tour {year}",
            "Sunday reset routine",
            "Painting tips nobody told me",
            "Building a {thing} from scrap wood",
        ),
        "items": ("kitchen", "bathroom", "balcony", "entryway", "bedroom"),
        "things": ("dresser", "bookshelf", "side table", "headboard"),
        "brands": ("home", "delivery", "snacks"),
    },
    "pets": {
        "label": "pets",
        "age": (6, 26, 32, 20, 16),
        "female": 68,
        "cpm": 1.0,
        "er": 1.15,
        "plat": (0.6, 1.3, 1.2),
        "creator_f": 0.65,
        "subs": ("dogs", "cats", "dog training", "rescue animals", "pet health", "exotic pets", "senior dogs"),
        "words": ("paws", "pup", "woof", "whiskers", "tails", "meow"),
        "styles": (
            "funny pet clips",
            "training tutorials",
            "day-in-the-life from the pet's point of view",
            "product tests",
            "adoption stories",
            "vet-checked care tips",
        ),
        "flavor": ("dog owners", "cat people", "new pet parents", "animal lovers who watch for the laughs"),
        "jobs": ("a dog groomer", "a vet nurse", "a shelter volunteer coordinator"),
        "titles": (
            "My dog reacts to {item}",
            "Training recall in {n} days",
            "What my cat eats in a day",
            "Rescue update: {n} months home",
            "Testing {n} puzzle feeders",
            "Grooming at home",
            "Puppy's first week",
            "Vet visit vlog",
            "Things my dog hates",
            "Senior dog morning routine",
        ),
        "items": ("a puzzle feeder", "a new toy", "an automatic feeder", "a cat tree", "the vacuum"),
        "brands": ("pets", "home", "snacks"),
    },
    "outdoor": {
        "label": "outdoor",
        "age": (3, 20, 34, 24, 19),
        "female": 38,
        "cpm": 1.05,
        "er": 0.95,
        "plat": (1.2, 0.6, 1.0),
        "creator_f": 0.4,
        "subs": (
            "hiking",
            "camping",
            "backpacking",
            "fishing",
            "climbing",
            "bushcraft",
            "trail running",
            "winter camping",
            "canoe tripping",
        ),
        "words": ("trails", "wild", "outdoors", "summit", "camp", "ridge", "peaks"),
        "styles": (
            "multi-day trip films",
            "gear reviews",
            "route guides",
            "skills tutorials",
            "quiet camp vlogs",
            "trail safety explainers",
        ),
        "flavor": ("weekend hikers", "campers planning a first trip", "gear nerds", "families getting outdoors"),
        "jobs": ("a park ranger", "an outdoor-education instructor", "a climbing-gym manager"),
        "titles": (
            "{n} days solo on the trail",
            "Winter camping at -{neg} degrees",
            "Gear I stopped carrying",
            "Budget {item} test",
            "Best day hikes near {city}",
            "Lost the trail: what I did",
            "Fishing from a canoe",
            "Packing list for {n} nights",
            "First time wild camping",
            "Ultralight shakedown",
        ),
        "items": ("tent", "sleeping bag", "stove", "backpack", "rain jacket"),
        "brands": ("outdoor", "travel", "food"),
    },
    "music": {
        "label": "music",
        "age": (14, 34, 28, 14, 10),
        "female": 48,
        "cpm": 0.9,
        "er": 1.05,
        "plat": (1.2, 1.1, 0.8),
        "creator_f": 0.45,
        "subs": ("covers", "guitar lessons", "piano", "music production", "singing", "songwriting", "beatmaking"),
        "words": ("music", "chords", "keys", "beats", "sings", "tunes"),
        "styles": ("covers", "tutorials", "studio sessions", "live loops", "song breakdowns", "gear demos"),
        "flavor": ("people learning an instrument", "music fans", "bedroom producers", "karaoke lovers"),
        "jobs": ("a music teacher", "a session musician", "a wedding-band singer"),
        "titles": (
            "{item} cover in one take",
            "Learn this riff in {n} minutes",
            "Making a beat from {item}",
            "{n} chords, {n2} songs",
            "Why this song works",
            "Studio day vlog",
            "Singing lesson: breath support",
            "Reacting to my first cover",
            "Busking in {city}",
            "Practice routine for beginners",
        ),
        "items": ("a rainy-day ballad", "a kitchen-pot sample", "an old folk song"),
        "brands": ("music", "tech", "software", "snacks"),
    },
    "comedy": {
        "label": "comedy",
        "age": (16, 40, 27, 11, 6),
        "female": 48,
        "cpm": 0.85,
        "er": 1.15,
        "plat": (0.8, 1.5, 0.9),
        "creator_f": 0.45,
        "subs": ("sketches", "pranks", "relatable skits", "stand-up clips", "parodies", "family comedy"),
        "words": ("laughs", "lol", "jokes", "skits", "funny", "chaos"),
        "styles": ("character sketches", "relatable skits", "street interviews", "parody ads", "duet reactions"),
        "flavor": ("teens and young adults scrolling for laughs", "office workers", "families watching together"),
        "jobs": ("a call-centre agent", "a drama student", "a waiter"),
        "titles": (
            "When your mum finds {item}",
            "POV: first day at a new job",
            "Types of people at the {place}",
            "Me explaining {item} to my dad",
            "Group chat at 2am",
            "If {item} could talk",
            "Part {n}: the landlord",
            "Street interview: {item}",
            "Every wedding ever",
            "My cousin at family dinner",
        ),
        "items": ("the group chat", "your receipts", "a new phone", "the family WhatsApp", "my search history"),
        "places": ("gym", "airport", "wedding", "office party", "supermarket"),
        "brands": ("snacks", "delivery", "mobile", "fashion"),
    },
    "language learning": {
        "label": "language learning",
        "age": (9, 38, 32, 14, 7),
        "female": 58,
        "cpm": 1.1,
        "er": 1.0,
        "plat": (1.1, 1.1, 0.8),
        "creator_f": 0.6,
        "subs": (
            "English lessons",
            "pronunciation",
            "grammar",
            "vocabulary",
            "exam prep",
            "slang",
            "Korean lessons",
            "Japanese lessons",
            "Spanish lessons",
        ),
        "words": ("speaks", "lingo", "words", "talks", "fluent", "phrases"),
        "styles": (
            "one-minute lessons",
            "common-mistake corrections",
            "listening drills",
            "street quizzes",
            "vocabulary carousels",
            "bilingual skits",
        ),
        "flavor": ("adults learning for work", "students preparing for exams", "travellers", "K-drama fans"),
        "jobs": ("an English teacher", "a translator", "a language-school coordinator"),
        "titles": (
            "{n} phrases natives actually use",
            "Stop saying '{item}'",
            "Pronunciation drill: {thing}",
            "Learn {n2} words in {n} minutes",
            "Ordering coffee in English",
            "Job interview phrases",
            "Listening practice with {thing}",
            "Grammar you forgot",
            "Slang from the {year} summer",
            "Speaking test tips",
        ),
        "items": ("very good", "I am agree", "I have 25 years", "How do you call"),
        "things": ("th sounds", "a movie scene", "phrasal verbs", "the letter R", "a podcast clip"),
        "brands": ("language", "education", "travel", "software"),
    },
    "crypto": {
        "label": "crypto",
        "age": (2, 32, 40, 18, 8),
        "female": 15,
        "cpm": 1.4,
        "er": 0.9,
        "plat": (1.3, 0.9, 0.4),
        "creator_f": 0.2,
        "subs": (
            "crypto basics",
            "wallet security",
            "DeFi",
            "trading",
            "blockchain explained",
            "NFTs",
            "scam awareness",
        ),
        "words": ("crypto", "chain", "block", "coin", "hodl", "sats"),
        "styles": ("market recaps", "wallet tutorials", "project deep dives", "scam breakdowns", "live chart sessions"),
        "flavor": ("beginners buying their first coin", "retail traders", "tech-curious men 25-40"),
        "jobs": ("a software developer", "a bank analyst", "an electrical engineer"),
        "titles": (
            "Market recap: week {n}",
            "How to set up a self-custody wallet",
            "{n} scams to avoid",
            "Is {item} dead?",
            "DeFi explained for beginners",
            "My portfolio after {n} months",
            "Seed phrase mistakes",
            "What moves the market",
            "Stablecoins in {n} minutes",
            "Crypto taxes explained",
        ),
        "items": ("the altcoin season", "staking", "the NFT market"),
        "brands": ("crypto", "invest", "software", "tech"),
    },
    "health": {
        "label": "health and wellness",
        "age": (3, 20, 34, 24, 19),
        "female": 66,
        "cpm": 1.15,
        "er": 1.0,
        "plat": (0.9, 0.9, 1.1),
        "creator_f": 0.65,
        "subs": ("meditation", "sleep", "nutrition", "mental health", "breathwork", "women's health", "gut health"),
        "words": ("well", "calm", "mind", "heals", "balance", "rest"),
        "styles": (
            "guided sessions",
            "myth-busting explainers",
            "routine videos",
            "interviews with professionals",
            "calm talking-head videos",
            "evidence round-ups",
        ),
        "flavor": ("stressed professionals", "people struggling with sleep", "new parents", "health-curious adults"),
        "jobs": ("a nurse", "a dietitian", "a yoga teacher", "a psychology graduate"),
        "titles": (
            "{n}-minute wind-down for sleep",
            "What I learned from {n} weeks of meditation",
            "Breathwork for anxious mornings",
            "Sleep myths, debunked",
            "My evening routine",
            "Gut health basics",
            "How stress shows up in the body",
            "A dietitian's grocery haul",
            "Body scan for beginners",
            "Sunday reset for your mind",
        ),
        "items": ("sleep", "stress"),
        "brands": ("health", "fitness", "food", "productivity"),
    },
}

# Female-majority audiences required / male-majority audiences required (see README, "Consistency rules").
FEMALE_MAJORITY_NICHES = ("beauty", "fashion", "parenting")
MALE_MAJORITY_NICHES = {"gaming": 55, "tech reviews": 60, "crypto": 60}
GAMING_FEMALE_FRIENDLY = ("cozy games", "casual games", "life sims", "game ASMR", "puzzle games")
# Sub-niches that move the audience's gender (points of female share) or age (weights added per bucket).
SUB_GENDER = {
    "bodybuilding": -30,
    "pilates": 18,
    "postpartum fitness": 30,
    "cozy games": 42,
    "casual games": 36,
    "puzzle games": 30,
    "life sims": 36,
    "game ASMR": 34,
    "dad life": -25,
    "men's grooming": -40,
    "fishing": -20,
    "PC builds": -10,
    "shooters": -8,
    "strategy games": -6,
    "cat care": 8,
    "mom fitness": 30,
    "makeup artistry": 4,
}
SUB_AGE = {
    "exam prep": (14, 6, -10, -6, -4),
    "student budgeting": (6, 16, -10, -6, -6),
    "fitness over 40": (-4, -14, -8, 14, 12),
    "retirement basics": (-3, -14, -10, 8, 19),
    "mature skin": (-8, -20, 0, 14, 14),
    "study with me": (10, 8, -8, -6, -4),
    "newborn care": (-1, -4, 8, 0, -3),
    "kids' content": (20, 0, -10, -6, -4),
    "grand strategy": (-12, -10, 6, 9, 7),
    "4X": (-10, -6, 6, 6, 4),
    "historical strategy": (-12, -10, 6, 9, 7),
    "cozy games": (-8, 0, 6, 2, 0),
    "casual games": (-8, -4, 6, 4, 2),
    "puzzle games": (-6, -2, 4, 2, 2),
    "boundary waters": (-2, -6, 0, 4, 4),
}

# ---------------------------------------------------------------------------------------------------------------
# Hand-designed creators: per brief of evals/marketing/briefs.yaml, the client's picks and the near misses (with
# the reason they miss). Page text never names the client's product. Optional keys: city, since, note, avail,
# collabs [(brand, label)], titles, vr (avg_views / followers), er, ppm, age (raw weights for the five buckets),
# female (audience female share), agency, sparse, style.
# ---------------------------------------------------------------------------------------------------------------
US, UK, CA, IN, ID, PH, BR, MX = (
    "United States",
    "United Kingdom",
    "Canada",
    "India",
    "Indonesia",
    "Philippines",
    "Brazil",
    "Mexico",
)
DE, FR, JP, KR, AU, NG, ES, VN, TH, TR = (
    "Germany",
    "France",
    "Japan",
    "South Korea",
    "Australia",
    "Nigeria",
    "Spain",
    "Vietnam",
    "Thailand",
    "Turkey",
)
_PLAT = {"yt": "YouTube", "tt": "TikTok", "ig": "Instagram"}


def _hand(role, plat, handle, name, g, niche, subs, region, lang, followers, why="", **kw):
    return {
        "role": role,
        "platform": _PLAT[plat],
        "handle": handle,
        "name": name,
        "g": g,
        "niche": niche,
        "subs": tuple(subs),
        "region": region,
        "language": lang,
        "followers": followers,
        "why": why,
        **kw,
    }


def pick(*args, **kw):
    return _hand("pick", *args, **kw)


def near(*args, why, **kw):
    return _hand("near", *args, why=why, **kw)


HAND_GROUPS: list[tuple[str, list[dict]]] = [
    (
        "mk-app-pennypilot-us-launch",
        [
            pick(
                "yt",
                "moneywithmaya",
                "Maya Okafor",
                "f",
                "personal finance",
                ("budgeting", "debt payoff", "zero-based budgeting"),
                US,
                "English",
                412_000,
                city="Columbus, Ohio",
                since=2019,
                collabs=[
                    ("Budgetwren", "budgeting app"),
                    ("Brightvault Bank", "digital bank"),
                    ("Filemint", "tax software"),
                ],
                note="Maya's audience is mostly renters in their late twenties; her 'budget with me' series walks through "
                "a real take-home paycheck line by line in a spreadsheet and, since 2025, in whatever app she is "
                "testing. Sponsors get a 60-90 second integration after the first budget review, with a promo code "
                "pinned in the description.",
                titles=[
                    "Budget with me: $3,840 take-home in Columbus",
                    "I paid off $23k of credit cards in 19 months",
                    "Zero-based budgeting for beginners (free template)",
                    "Rent is 41% of my income. Now what?",
                ],
            ),
            pick(
                "yt",
                "budgetbydevon",
                "Devon Pratt",
                "m",
                "personal finance",
                ("budgeting", "first job money", "401(k) basics"),
                US,
                "English",
                268_000,
                city="Raleigh, North Carolina",
                since=2020,
                note="Former payroll clerk who explains first-job money: offer letters, 401(k) matches, what a W-4 does. "
                "Dry humour, whiteboard style. Viewers are mostly 22-30 and new to budgeting. He asks to use a "
                "product for three weeks before he will talk about it on camera.",
            ),
            pick(
                "yt",
                "ourdebtfreeyear",
                "Jess & Marcus Hale",
                "duo",
                "personal finance",
                ("debt payoff", "couples money", "cash envelopes"),
                US,
                "English",
                655_000,
                city="Tampa, Florida",
                since=2018,
                collabs=[
                    (
                        "Ledgerloop",
                        "budgeting app",
                        2025,
                        "integration in two videos per month",
                        "ran for two quarters and was renewed",
                    ),
                    ("Harborline Card", "digital bank"),
                    ("Hearthbox Meals", "meal kit"),
                ],
                note="A married couple documenting how they cleared $87,000 of consumer debt; now they run monthly "
                "'money date' episodes where they review spending together. Their Ledgerloop integration in 2025 "
                "ran for two quarters and was renewed; they are free of app exclusivity from 2026.",
            ),
            pick(
                "yt",
                "quietmoneyclub",
                "Renee Alvarado",
                "f",
                "personal finance",
                ("saving", "sinking funds", "frugal living"),
                US,
                "English",
                189_000,
                city="Sacramento, California",
                since=2021,
                note="Slow, calm videos about saving on a normal salary; strong comment community "
                "that shares their own sinking-fund targets.",
            ),
            pick(
                "tt",
                "centsiblesam",
                "Sam Whitfield",
                "m",
                "personal finance",
                ("budgeting", "paycheck breakdowns", "renting"),
                US,
                "English",
                820_000,
                city="Denver, Colorado",
                since=2021,
                note="Known for 45-second 'where did my paycheck go' breakdowns with viewers' real numbers. "
                "Comfortable with app screen recordings and link-in-bio codes.",
            ),
            pick(
                "tt",
                "paycheckpriya",
                "Priya Raman",
                "f",
                "personal finance",
                ("budgeting for new grads", "paycheck breakdowns", "saving"),
                US,
                "English",
                1_150_000,
                city="Chicago, Illinois",
                since=2020,
                note="Priya's series 'new grad, real budget' follows college graduates through their first year of pay. "
                "Her audience is 18-34 and mostly US; she has worked with two fintech apps and one bank.",
            ),
            pick(
                "tt",
                "budgetwithbri",
                "Brianna Cole",
                "f",
                "personal finance",
                ("cash stuffing", "sinking funds", "budgeting"),
                US,
                "English",
                540_000,
                female=68,
                city="Nashville, Tennessee",
                since=2022,
                note="Cash-stuffing and sinking-fund videos with a strong 25-40 female audience; she also "
                "shows the digital side of her budget for bills that can't be paid in cash.",
            ),
            pick(
                "tt",
                "rentandramen",
                "Tyler Nguyen",
                "m",
                "personal finance",
                ("student loans", "new grad money", "budgeting"),
                US,
                "English",
                310_000,
                city="Portland, Oregon",
                since=2022,
                note="Funny, fast budgeting content for people just out of college: rent splits, student "
                "loans and grocery runs. Performs well with app demos.",
            ),
            near(
                "yt",
                "poundwisepoppy",
                "Poppy Ashdown",
                "f",
                "personal finance",
                ("budgeting", "saving", "ISAs"),
                UK,
                "English",
                380_000,
                city="Leeds",
                since=2019,
                why="right niche and audience age but UK-based: talks ISAs and pounds, audience mostly UK",
                note="Poppy's budgeting content is built around UK products: ISAs, council tax, UK banks.",
            ),
            near(
                "yt",
                "wealthwithgrant",
                "Grant Ellsworth",
                "m",
                "personal finance",
                ("investing basics", "retirement basics", "budgeting"),
                US,
                "English",
                3_400_000,
                vr=0.19,
                city="Austin, Texas",
                since=2016,
                why="fits the niche and region, but one integration costs about half of the whole YouTube budget",
                note="Large investing and budgeting channel; sponsorships are sold per quarter through his management "
                "and usually booked out four months ahead.",
            ),
            near(
                "ig",
                "thebudgetnest",
                "Alana Brooks",
                "f",
                "personal finance",
                ("budgeting", "saving", "frugal living"),
                US,
                "English",
                450_000,
                city="Atlanta, Georgia",
                since=2020,
                why="right audience and region but Instagram-only; the brief allows YouTube and TikTok",
            ),
            near(
                "tt",
                "teenmoneytalk",
                "Jaylen Pryor",
                "m",
                "personal finance",
                ("first paycheck", "saving", "teen money"),
                US,
                "English",
                700_000,
                age=(62, 26, 8, 3, 1),
                city="Phoenix, Arizona",
                since=2023,
                why="US finance creator but most of the audience is 13-17, below the brief's 22-38 target",
            ),
            near(
                "tt",
                "moonbagmason",
                "Mason Reilly",
                "m",
                "crypto",
                ("trading", "altcoins", "crypto basics"),
                US,
                "English",
                900_000,
                city="San Diego, California",
                since=2021,
                why="big US money audience, but crypto speculation content conflicts with the brief's no-crypto rule",
                note="Daily altcoin picks and leverage trading clips.",
            ),
        ],
    ),
    (
        "mk-app-ponte-english-brazil",
        [
            pick(
                "tt",
                "inglescomrafa",
                "Rafael Antunes",
                "m",
                "language learning",
                ("English lessons", "pronunciation", "slang"),
                BR,
                "Portuguese",
                1_300_000,
                city="São Paulo",
                since=2020,
                note="Rafael teaches English for Brazilians in 30-second skits: a mistake, the correction, a joke. His "
                "audience is 18-34 and almost all Brazilian; he has promoted two language apps and an online "
                "school.",
                collabs=[("Lexora", "language app"), ("Wordwise", "language app"), ("Glintmobile", "mobile carrier")],
            ),
            pick(
                "tt",
                "profjuliingles",
                "Juliana Castro",
                "f",
                "language learning",
                ("grammar", "TOEFL and IELTS prep", "English lessons"),
                BR,
                "Portuguese",
                640_000,
                city="Belo Horizonte",
                since=2019,
                note="A certified English teacher (CELTA) who explains grammar with a whiteboard and "
                "corrects comments live. Adult learners, many preparing for job interviews.",
            ),
            pick(
                "tt",
                "ingles.da.bia",
                "Beatriz Lima",
                "f",
                "language learning",
                ("everyday English", "travel phrases", "vocabulary"),
                BR,
                "Portuguese",
                380_000,
                city="Curitiba",
                since=2021,
            ),
            pick(
                "ig",
                "englishcomcarol",
                "Carolina Teixeira",
                "f",
                "language learning",
                ("vocabulary", "business English", "English lessons"),
                BR,
                "Portuguese",
                520_000,
                city="Recife",
                since=2018,
                note="Carousels of vocabulary for the office: meetings, emails, interviews. Saves and shares "
                "are unusually high for the account size.",
            ),
            pick(
                "ig",
                "mateusspeaks",
                "Mateus Ferreira",
                "m",
                "language learning",
                ("pronunciation", "listening", "American accent"),
                BR,
                "Portuguese",
                290_000,
                city="Porto Alegre",
                since=2020,
            ),
            pick(
                "tt",
                "duda.bilingue",
                "Eduarda Souza",
                "f",
                "language learning",
                ("bilingual skits", "slang", "English lessons"),
                BR,
                "Portuguese",
                860_000,
                city="Rio de Janeiro",
                since=2021,
                note="Bilingual comedy: Duda plays a Brazilian who just moved to the US. Each skit ends with "
                "the expressions she used, so it doubles as a lesson.",
            ),
            pick(
                "ig",
                "tiagoinenglish",
                "Tiago Nascimento",
                "m",
                "language learning",
                ("study abroad", "travel phrases", "English lessons"),
                BR,
                "Portuguese",
                210_000,
                city="Salvador",
                since=2022,
            ),
            near(
                "tt",
                "englishwithvalen",
                "Valentina Ruiz",
                "f",
                "language learning",
                ("English lessons", "grammar"),
                MX,
                "Spanish",
                570_000,
                city="Guadalajara",
                since=2020,
                why="same format, but teaches English to Spanish speakers; audience in Mexico, not Brazil",
            ),
            near(
                "yt",
                "professorandreingles",
                "André Carvalho",
                "m",
                "language learning",
                ("English lessons", "grammar", "exam prep"),
                BR,
                "Portuguese",
                2_100_000,
                city="São Paulo",
                since=2015,
                why="ideal Brazilian English teacher but on YouTube; the brief is TikTok and Instagram only",
            ),
            near(
                "tt",
                "caiorirodemais",
                "Caio Bittencourt",
                "m",
                "comedy",
                ("sketches", "relatable skits"),
                BR,
                "Portuguese",
                6_800_000,
                vr=0.36,
                city="Rio de Janeiro",
                since=2017,
                why="huge Brazilian reach but a comedy creator and far over the per-creator budget",
            ),
            near(
                "tt",
                "ingles_pro_enem",
                "Lucas Batista",
                "m",
                "language learning",
                ("exam prep", "English lessons"),
                BR,
                "Portuguese",
                430_000,
                age=(63, 29, 5, 2, 1),
                city="Fortaleza",
                since=2022,
                why="Brazilian English teacher, but the audience is mostly 13-17 students preparing for ENEM",
            ),
        ],
    ),
    (
        "mk-app-quietharbor-meditation-uk",
        [
            pick(
                "yt",
                "stillwithisla",
                "Isla Fairbairn",
                "f",
                "health",
                ("meditation", "breathwork", "sleep"),
                UK,
                "English",
                310_000,
                city="Edinburgh",
                since=2018,
                note="Guided meditations and honest talks about burnout; no diet or detox sponsors. Her audience is "
                "mostly women 25-44 in the UK, many of them in healthcare and teaching.",
                collabs=[("Calmora", "wellness brand"), ("Sleepfold", "wellness brand")],
            ),
            pick(
                "yt",
                "thequietdesk",
                "Oliver Penrose",
                "m",
                "health",
                ("mindfulness at work", "burnout recovery"),
                UK,
                "English",
                145_000,
                city="Bristol",
                since=2020,
                note="A former management consultant talking about stress at work; calm talking-head videos, 15-25 min.",
            ),
            pick(
                "ig",
                "soft.mornings.hannah",
                "Hannah Greaves",
                "f",
                "health",
                ("mindfulness", "journaling", "slow living"),
                UK,
                "English",
                230_000,
                city="Manchester",
                since=2019,
            ),
            pick(
                "ig",
                "yogawithnkem",
                "Nkem Adeyemi",
                "f",
                "fitness",
                ("yoga", "breathwork", "mobility"),
                UK,
                "English",
                180_000,
                city="London",
                since=2020,
                female=74,
                note="Trauma-informed yoga teacher; posts short breath practices and longer Sunday flows.",
            ),
            pick(
                "ig",
                "mumandmind",
                "Lucy Barraclough",
                "f",
                "parenting",
                ("maternal mental health", "postnatal wellbeing"),
                UK,
                "English",
                96_000,
                city="Sheffield",
                since=2021,
                note="Writes openly about postnatal anxiety; works with NHS-trained perinatal specialists on Q&As.",
            ),
            pick(
                "yt",
                "calmcoachcallum",
                "Callum Reid",
                "m",
                "health",
                ("anxiety education", "CBT basics", "sleep"),
                UK,
                "English",
                420_000,
                city="Glasgow",
                since=2017,
                note="A CBT therapist who explains anxiety tools; careful about claims and insists on reviewing scripts.",
            ),
            near(
                "ig",
                "mindfulmadison",
                "Madison Clarke",
                "f",
                "health",
                ("meditation", "journaling"),
                US,
                "English",
                390_000,
                city="San Diego, California",
                since=2019,
                why="right content and audience age but US-based with a mostly US audience",
            ),
            near(
                "yt",
                "deepbreathdaniel",
                "Daniel Moss",
                "m",
                "health",
                ("breathwork", "meditation", "cold exposure"),
                UK,
                "English",
                4_600_000,
                vr=0.19,
                city="London",
                since=2016,
                why="UK wellbeing creator that fits the audience, but one integration is over a third of the budget and a "
                "dedicated video most of it",
            ),
            near(
                "tt",
                "calmtok_ellie",
                "Ellie Marsh",
                "f",
                "health",
                ("meditation", "sleep", "mental health"),
                UK,
                "English",
                510_000,
                city="Brighton",
                since=2021,
                why="right UK wellbeing audience but TikTok-only; the brief is Instagram and YouTube",
            ),
            near(
                "ig",
                "shred.with.shannon",
                "Shannon Keogh",
                "f",
                "fitness",
                ("weight loss", "HIIT"),
                UK,
                "English",
                340_000,
                city="Birmingham",
                since=2019,
                collabs=[
                    ("Slimleaf Detox Tea", "diet tea", 2026, "Reel and Stories", "ran as a 21-day shred challenge"),
                    ("Hydrafuel", "fitness brand"),
                ],
                why="UK women 25-44, but weight-loss and detox-tea content breaks the brief's no-diet-culture rule",
                note="Regularly promotes detox teas and 'shred' challenges.",
            ),
        ],
    ),
    (
        "mk-app-rankrise-india-jee-neet",
        [
            pick(
                "yt",
                "padhaiwithpankaj",
                "Pankaj Tiwari",
                "m",
                "education",
                ("exam prep", "JEE physics", "Hinglish"),
                IN,
                "Hindi",
                1_450_000,
                city="Kota",
                since=2018,
                note="Physics for JEE in Hinglish: two-hour one-shot lectures and weekly live doubt sessions on Sunday "
                "nights. Students call him 'Pankaj sir'. Not tied to any coaching institute.",
                titles=[
                    "Electrostatics one shot for JEE Main 2027",
                    "Rotational motion: 120 PYQs live",
                    "Kota routine: how to study 10 hours without burning out",
                    "Modern physics in 3 hours (Hinglish)",
                ],
            ),
            pick(
                "yt",
                "chemistrybyneha",
                "Neha Bhargava",
                "f",
                "education",
                ("exam prep", "NEET chemistry", "organic chemistry"),
                IN,
                "Hindi",
                880_000,
                city="Jaipur",
                since=2019,
                note="Organic chemistry reaction maps and NCERT-based revision; runs live tests with her community.",
            ),
            pick(
                "yt",
                "biologykiclass",
                "Ritu Verma",
                "f",
                "education",
                ("exam prep", "NEET biology", "NCERT"),
                IN,
                "Hindi",
                1_020_000,
                city="Lucknow",
                since=2018,
            ),
            pick(
                "yt",
                "mathsmitra_ankit",
                "Ankit Yadav",
                "m",
                "education",
                ("exam prep", "JEE maths", "shortcuts"),
                IN,
                "Hindi",
                640_000,
                city="Patna",
                since=2020,
            ),
            pick(
                "yt",
                "topperkidiary",
                "Shruti Mishra",
                "f",
                "education",
                ("study with me", "topper routines", "NEET"),
                IN,
                "Hindi",
                410_000,
                city="Varanasi",
                since=2021,
                note="A medical student who cleared NEET in 2022; posts study vlogs, timetables and 'study with me' "
                "streams for aspirants.",
            ),
            pick(
                "yt",
                "dropperdost",
                "Rohit Chauhan",
                "m",
                "education",
                ("exam prep", "dropper year", "study plans"),
                IN,
                "Hindi",
                350_000,
                city="Indore",
                since=2021,
            ),
            pick(
                "yt",
                "ncertnotesnikhil",
                "Nikhil Jha",
                "m",
                "education",
                ("exam prep", "board exams", "NCERT notes"),
                IN,
                "Hindi",
                760_000,
                city="Kanpur",
                since=2019,
            ),
            pick(
                "yt",
                "iitwalebhaiya",
                "Aman Srivastava",
                "m",
                "education",
                ("exam prep", "IIT life", "JEE strategy"),
                IN,
                "Hindi",
                1_900_000,
                city="Delhi",
                since=2017,
                note="IIT graduate who talks strategy, mock-test analysis and campus life; huge pull with class 11-12 "
                "students in the Hindi belt.",
            ),
            pick(
                "yt",
                "studywithsana",
                "Sana Qureshi",
                "f",
                "education",
                ("study with me", "Pomodoro", "NEET"),
                IN,
                "Hindi",
                290_000,
                city="Bhopal",
                since=2022,
            ),
            pick(
                "yt",
                "kotadiaries",
                "Harsh Vardhan Meena",
                "m",
                "education",
                ("exam prep", "Kota coaching life", "NEET"),
                IN,
                "Hindi",
                520_000,
                city="Kota",
                since=2020,
            ),
            near(
                "yt",
                "studywithclaire",
                "Claire Whitman",
                "f",
                "education",
                ("study with me", "university life"),
                US,
                "English",
                830_000,
                city="Boston, Massachusetts",
                since=2018,
                why="popular study channel but American, English-only, with a US university audience",
            ),
            near(
                "ig",
                "neetnotes.by.divya",
                "Divya Rao",
                "f",
                "education",
                ("exam prep", "NEET biology", "notes"),
                IN,
                "Hindi",
                460_000,
                city="Jaipur",
                since=2021,
                why="right exam audience in India but on Instagram; the brief is YouTube only",
            ),
            near(
                "yt",
                "rankmasteralok",
                "Alok Pandey",
                "m",
                "education",
                ("exam prep", "JEE", "NEET"),
                IN,
                "Hindi",
                4_800_000,
                city="Prayagraj",
                since=2016,
                collabs=[
                    (
                        "Vidyamarg Classes",
                        "coaching institute",
                        2026,
                        "brand ambassadorship",
                        "exclusive for test-prep apps until March 2027",
                    ),
                    ("Zentrix", "consumer electronics brand"),
                ],
                avail="Brand ambassador of Vidyamarg Classes with category exclusivity for test-prep apps until March "
                "2027.",
                why="fits everything, but has an exclusive test-prep ambassadorship with a competitor until 2027",
            ),
            near(
                "yt",
                "tamilstudyhub",
                "Karthik Subramanian",
                "m",
                "education",
                ("exam prep", "NEET", "Tamil medium"),
                IN,
                "Tamil",
                690_000,
                city="Chennai",
                since=2019,
                why="NEET educator in India but teaches in Tamil; the brief targets Hindi-speaking students",
            ),
        ],
    ),
    (
        "mk-app-reproom-home-workouts",
        [
            pick(
                "yt",
                "sweatwithsloane",
                "Sloane Whitaker",
                "f",
                "fitness",
                ("home workouts", "HIIT", "no equipment"),
                US,
                "English",
                980_000,
                city="Charlotte, North Carolina",
                since=2017,
                note="NASM-certified trainer. Follow-along workouts of 20-30 minutes with low-impact options on screen; "
                "body-neutral language, no supplement sponsors.",
                collabs=[("Motionly", "fitness app"), ("Strideform", "fitness brand"), ("Corevia", "fitness brand")],
            ),
            pick(
                "yt",
                "dadbodrebuild",
                "Marcus Bell",
                "m",
                "fitness",
                ("strength training", "home workouts", "dad life"),
                US,
                "English",
                340_000,
                city="Pittsburgh, Pennsylvania",
                since=2020,
                note="A father of three who rebuilt his strength at home; programs need only a pair of dumbbells.",
            ),
            pick(
                "yt",
                "coachmireille",
                "Mireille Gagnon",
                "f",
                "fitness",
                ("pilates", "low-impact", "home workouts"),
                CA,
                "English",
                220_000,
                city="Ottawa, Ontario",
                since=2019,
                note="CSEP-certified personal trainer; bilingual but films in English.",
            ),
            pick(
                "yt",
                "twentyminutetara",
                "Tara Lindgren",
                "f",
                "fitness",
                ("home workouts", "postpartum fitness", "20-minute workouts"),
                US,
                "English",
                560_000,
                city="Minneapolis, Minnesota",
                since=2018,
            ),
            pick(
                "tt",
                "fitmomkeisha",
                "Keisha Thornton",
                "f",
                "fitness",
                ("mom fitness", "quick workouts"),
                US,
                "English",
                1_300_000,
                age=(4, 22, 44, 24, 6),
                city="Atlanta, Georgia",
                since=2020,
                note="Ten-minute workouts filmed in the living room while the kids nap; audience is mostly mothers "
                "25-44.",
            ),
            pick(
                "tt",
                "deskbreakdan",
                "Daniel Okoro",
                "m",
                "fitness",
                ("mobility", "desk stretches", "office fitness"),
                US,
                "English",
                470_000,
                city="Chicago, Illinois",
                since=2021,
            ),
            pick(
                "tt",
                "liftwithlupe",
                "Guadalupe Herrera",
                "f",
                "fitness",
                ("strength training", "beginner lifting"),
                US,
                "English",
                690_000,
                city="Phoenix, Arizona",
                since=2021,
                note="ACE-certified trainer; beginner strength plans for women who are new to weights.",
            ),
            pick(
                "ig",
                "movewithmaren",
                "Maren Solberg",
                "f",
                "fitness",
                ("pilates", "core", "home workouts"),
                US,
                "English",
                410_000,
                city="Denver, Colorado",
                since=2019,
            ),
            pick(
                "ig",
                "strongafter40",
                "Denise Porter",
                "f",
                "fitness",
                ("fitness over 40", "strength training", "menopause"),
                US,
                "English",
                260_000,
                city="Columbus, Ohio",
                since=2020,
            ),
            pick(
                "ig",
                "northfit.jordan",
                "Jordan Tremblay",
                "m",
                "fitness",
                ("kettlebells", "home gym"),
                CA,
                "English",
                175_000,
                city="Calgary, Alberta",
                since=2019,
            ),
            near(
                "yt",
                "gymbrotrent",
                "Trent Maddox",
                "m",
                "fitness",
                ("bodybuilding", "supplements", "bulking"),
                US,
                "English",
                1_100_000,
                age=(18, 48, 24, 7, 3),
                female=16,
                city="Tampa, Florida",
                since=2016,
                collabs=[("Hydrafuel", "fitness brand"), ("Alpha Stack Pre-Workout", "supplement brand")],
                why="big US fitness channel but a young male bodybuilding audience and supplement-heavy sponsors",
            ),
            near(
                "ig",
                "fitnessbyfabi",
                "Fabiana Costa",
                "f",
                "fitness",
                ("home workouts", "HIIT"),
                BR,
                "Portuguese",
                620_000,
                city="Florianópolis",
                since=2018,
                why="right content but based in Brazil, posting in Portuguese to a Brazilian audience",
            ),
            near(
                "tt",
                "hiitqueenhailey",
                "Hailey Sutton",
                "f",
                "fitness",
                ("HIIT", "home workouts"),
                US,
                "English",
                8_500_000,
                vr=0.3,
                city="Nashville, Tennessee",
                since=2019,
                why="ideal format and audience but far over budget for one creator",
            ),
            near(
                "ig",
                "reformerrosie",
                "Rosie Hartley",
                "f",
                "fitness",
                ("pilates", "reformer pilates"),
                UK,
                "English",
                300_000,
                city="Brighton",
                since=2020,
                why="pilates creator with the right audience age, but UK-based; the brief covers the US and Canada",
            ),
        ],
    ),
    (
        "mk-app-kondate-note-japan",
        [
            pick(
                "yt",
                "yukanotsukurioki",
                "Yuka Shimizu",
                "f",
                "food",
                ("batch cooking", "bento", "weeknight meals"),
                JP,
                "Japanese",
                720_000,
                age=(2, 14, 40, 30, 14),
                female=78,
                city="Yokohama",
                since=2017,
                note="Sunday tsukurioki (make-ahead) sessions: ten side dishes in ninety minutes for a family of four. "
                "Viewers are mostly women 30-44 who work full time.",
                titles=[
                    "10 make-ahead dishes for a busy week (90 minutes)",
                    "Bento for two kids, five days",
                    "Budget batch cooking: 5,000 yen for the week",
                    "What I cook when I get home at 7pm",
                ],
            ),
            pick(
                "yt",
                "papagohan_kenta",
                "Kenta Morimoto",
                "m",
                "food",
                ("dad cooking", "15-minute dinners", "family dinners"),
                JP,
                "Japanese",
                390_000,
                city="Osaka",
                since=2020,
                note="A working father cooking dinner in 15 minutes; popular with couples who share the cooking.",
            ),
            pick(
                "ig",
                "asagohan.mai",
                "Mai Takeda",
                "f",
                "food",
                ("breakfast", "bento", "meal prep"),
                JP,
                "Japanese",
                260_000,
                city="Fukuoka",
                since=2019,
            ),
            pick(
                "ig",
                "setsuyaku.kitchen.rie",
                "Rie Okamura",
                "f",
                "food",
                ("budget meals", "meal planning"),
                JP,
                "Japanese",
                180_000,
                city="Sapporo",
                since=2020,
            ),
            pick(
                "yt",
                "mainichigohan_aya",
                "Aya Fujimoto",
                "f",
                "food",
                ("weekly menu planning", "family dinners"),
                JP,
                "Japanese",
                540_000,
                city="Nagoya",
                since=2018,
                note="Plans a week of dinners on a whiteboard and shops once; comments are full of viewers' own menus.",
            ),
            near(
                "yt",
                "ramenhunter_takumi",
                "Takumi Ishii",
                "m",
                "food",
                ("restaurant reviews", "ramen"),
                JP,
                "Japanese",
                610_000,
                female=24,
                age=(6, 38, 36, 13, 7),
                city="Tokyo",
                since=2018,
                why="Japanese food channel, but restaurant reviews for a young male audience, not home cooking",
            ),
            near(
                "ig",
                "koreanhomecook_subin",
                "Kim Su-bin",
                "f",
                "food",
                ("home cooking", "meal prep"),
                KR,
                "Korean",
                280_000,
                city="Seoul",
                since=2020,
                why="home-cooking creator for the right audience, but Korean-language and based in South Korea",
            ),
            near(
                "tt",
                "jitan.gohan.nana",
                "Nana Kuroda",
                "f",
                "food",
                ("quick meals", "meal prep"),
                JP,
                "Japanese",
                820_000,
                city="Tokyo",
                since=2021,
                why="right audience and content but on TikTok; the brief is YouTube and Instagram",
            ),
            near(
                "yt",
                "shokudo_master_hideo",
                "Hideo Nakano",
                "m",
                "food",
                ("home cooking", "Japanese classics"),
                JP,
                "Japanese",
                5_800_000,
                vr=0.18,
                city="Kyoto",
                since=2014,
                why="home cooking for families, but his rates are far above the per-creator budget",
            ),
        ],
    ),
    (
        "mk-app-pawscope-vet-telehealth-us",
        [
            pick(
                "tt",
                "vettechval",
                "Valerie Summers",
                "f",
                "pets",
                ("pet health", "dog health", "vet tech tips"),
                US,
                "English",
                920_000,
                age=(5, 24, 36, 22, 13),
                city="Austin, Texas",
                since=2020,
                note="Licensed vet tech. 'Is this an emergency?' videos: she tells owners when to call a vet now and "
                "when it can wait. Audience mostly US dog and cat owners 25-44.",
            ),
            pick(
                "tt",
                "goldenhourgus",
                "Megan Ashby",
                "f",
                "pets",
                ("dogs", "golden retrievers", "dog lifestyle"),
                US,
                "English",
                1_600_000,
                city="Nashville, Tennessee",
                since=2020,
                note="The account is run from Gus the golden retriever's point of view; Megan narrates.",
            ),
            pick(
                "tt",
                "catladycassidy",
                "Cassidy Moreno",
                "f",
                "pets",
                ("cats", "rescue animals", "cat care"),
                US,
                "English",
                480_000,
                city="Sacramento, California",
                since=2021,
            ),
            pick(
                "tt",
                "thedogdadderek",
                "Derek Lawson",
                "m",
                "pets",
                ("dog training", "rescue animals"),
                US,
                "English",
                730_000,
                city="Denver, Colorado",
                since=2020,
            ),
            pick(
                "ig",
                "twocorgisandacondo",
                "Alyssa Park",
                "f",
                "pets",
                ("dogs", "apartment dogs"),
                US,
                "English",
                340_000,
                city="Chicago, Illinois",
                since=2019,
            ),
            pick(
                "ig",
                "dr.noah.dvm",
                "Noah Kessler",
                "m",
                "pets",
                ("pet health", "veterinarian", "pet myths"),
                US,
                "English",
                410_000,
                city="Columbus, Ohio",
                since=2019,
                note="A practising small-animal vet; posts myth-busting reels and carousels on common symptoms.",
            ),
            pick(
                "ig",
                "seniorpupsociety",
                "Linda Carver",
                "f",
                "pets",
                ("senior dogs", "adoption"),
                US,
                "English",
                150_000,
                city="Pittsburgh, Pennsylvania",
                since=2018,
                age=(2, 14, 30, 28, 26),
            ),
            pick(
                "tt",
                "meowmanor",
                "Ashley Trinh",
                "f",
                "pets",
                ("cats", "cat behavior", "multi-cat household"),
                US,
                "English",
                560_000,
                city="Houston, Texas",
                since=2021,
            ),
            near(
                "ig",
                "snakesandscales_sky",
                "Skyler Dunn",
                "m",
                "pets",
                ("exotic pets", "reptiles"),
                US,
                "English",
                380_000,
                city="Tampa, Florida",
                since=2019,
                why="US pet creator, but reptiles and exotic pets, which the service does not cover",
            ),
            near(
                "tt",
                "chouquette.le.chien",
                "Camille Roux",
                "f",
                "pets",
                ("dogs", "city dog life"),
                FR,
                "French",
                690_000,
                city="Paris",
                since=2020,
                why="dog content with a big following, but French-language and based in France",
            ),
            near(
                "yt",
                "dr.mikevetlife",
                "Mike Hardesty",
                "m",
                "pets",
                ("pet health", "veterinarian"),
                US,
                "English",
                1_200_000,
                city="Kansas City, Missouri",
                since=2017,
                why="vet creator with a US audience, but on YouTube; the brief is TikTok and Instagram",
            ),
            near(
                "tt",
                "bentleythebulldog",
                "Chris Dalton",
                "m",
                "pets",
                ("dogs", "funny pet clips"),
                US,
                "English",
                11_500_000,
                vr=0.3,
                city="Los Angeles, California",
                since=2018,
                why="huge US pet account, but one video would cost a large part of the budget",
            ),
        ],
    ),
    (
        "mk-app-tumbuhku-parenting-id",
        [
            pick(
                "ig",
                "bunda.ayu.cerita",
                "Ayu Lestari",
                "f",
                "parenting",
                ("baby food", "toddler activities"),
                ID,
                "Indonesian",
                640_000,
                city="Jakarta",
                since=2019,
                note="MPASI (first foods) recipes and toddler play ideas, in Bahasa Indonesia, for mothers of under-3s.",
            ),
            pick(
                "ig",
                "dokter.anak.rina",
                "Rina Hapsari",
                "f",
                "parenting",
                ("pediatric health", "vaccination", "child development"),
                ID,
                "Indonesian",
                890_000,
                city="Surabaya",
                since=2018,
                note="A paediatrician (Sp.A) who answers parents' questions in carousels and weekly Instagram Lives; "
                "very careful about medical claims.",
            ),
            pick(
                "tt",
                "bidannurul",
                "Nurul Hidayati",
                "f",
                "parenting",
                ("pregnancy", "breastfeeding", "newborn care"),
                ID,
                "Indonesian",
                720_000,
                city="Bandung",
                since=2020,
                note="A midwife explaining pregnancy and newborn care; wears hijab, modest and calm tone.",
            ),
            pick(
                "tt",
                "ayahasik.dimas",
                "Dimas Pratama",
                "m",
                "parenting",
                ("dad life", "toddler play"),
                ID,
                "Indonesian",
                430_000,
                city="Jakarta",
                since=2021,
                female=62,
            ),
            pick(
                "ig",
                "mpasi.ala.mama.tika",
                "Tika Rahmawati",
                "f",
                "parenting",
                ("baby food", "recipes"),
                ID,
                "Indonesian",
                310_000,
                city="Semarang",
                since=2020,
            ),
            pick(
                "tt",
                "keluargakecil.sarah",
                "Sarah Wijaya",
                "f",
                "parenting",
                ("family vlogs", "newborn care"),
                ID,
                "Indonesian",
                520_000,
                city="Tangerang",
                since=2021,
            ),
            near(
                "ig",
                "mommy.jen.ph",
                "Jennifer Dela Cruz",
                "f",
                "parenting",
                ("family vlogs", "toddler activities"),
                PH,
                "Filipino",
                480_000,
                city="Pasig",
                since=2019,
                why="parenting content for young mothers, but Filipino-language and based in the Philippines",
            ),
            near(
                "yt",
                "rumahmungil",
                "Sekar Ayuningtyas",
                "f",
                "parenting",
                ("family vlogs", "homeschooling"),
                ID,
                "Indonesian",
                1_100_000,
                city="Yogyakarta",
                since=2017,
                why="Indonesian family channel with the right mothers, but on YouTube; the brief is Instagram and TikTok",
            ),
            near(
                "ig",
                "nadia.and.kids",
                "Nadia Kusuma",
                "f",
                "parenting",
                ("family vlogs", "celebrity mom"),
                ID,
                "Indonesian",
                9_200_000,
                vr=0.16,
                city="Jakarta",
                since=2016,
                why="celebrity mother with the right audience, but far over the IDR 450 million budget",
            ),
        ],
    ),
]

HAND_GROUPS += [
    (
        "mk-app-reisefuchs-germany",
        [
            pick(
                "yt",
                "jonasreistmitzug",
                "Jonas Albrecht",
                "m",
                "travel",
                ("rail travel", "Interrail", "sustainable travel"),
                DE,
                "German",
                310_000,
                top={"Germany": 66, "Austria": 14, "Switzerland": 8},
                city="Leipzig",
                since=2018,
                note="Travels Europe by train only and shows every booking step on screen: which ticket, which app, "
                "what it cost. Audience 25-44, mostly Germany and Austria.",
                titles=[
                    "Mit dem Nachtzug nach Wien: lohnt sich das? (night train to Vienna)",
                    "Weekend in Ljubljana for under 300 euros",
                    "Interrail in 12 days: full route and costs",
                    "How I plan a trip in one evening",
                ],
            ),
            pick(
                "yt",
                "lenaundmaxunterwegs",
                "Lena & Max Kraus",
                "duo",
                "travel",
                ("van life", "weekend trips", "city breaks"),
                DE,
                "German",
                520_000,
                city="Hamburg",
                since=2017,
                note="A couple in their thirties doing weekend trips around Germany and neighbouring countries; their "
                "videos end with a downloadable plan.",
            ),
            pick(
                "ig",
                "fernweh.franzi",
                "Franziska Weber",
                "f",
                "travel",
                ("city breaks", "travel planning"),
                DE,
                "German",
                240_000,
                city="Köln",
                since=2019,
            ),
            pick(
                "ig",
                "familie.auf.reisen",
                "Katrin Hoffmann",
                "f",
                "travel",
                ("family travel", "Baltic Sea", "rail travel"),
                DE,
                "German",
                180_000,
                city="Dresden",
                since=2020,
                age=(2, 10, 42, 34, 12),
            ),
            pick(
                "yt",
                "timsalpentouren",
                "Tim Berger",
                "m",
                "travel",
                ("Alps", "hiking trips", "weekend trips"),
                DE,
                "German",
                270_000,
                city="München",
                since=2019,
            ),
            near(
                "ig",
                "carnetdevoyage.lea",
                "Léa Marchand",
                "f",
                "travel",
                ("city breaks", "rail travel"),
                FR,
                "French",
                260_000,
                city="Lyon",
                since=2019,
                why="right travel style, but French-language with a French audience",
            ),
            near(
                "yt",
                "unterwegs_mit_felix",
                "Felix Hartmann",
                "m",
                "travel",
                ("backpacking", "world travel"),
                DE,
                "German",
                4_200_000,
                vr=0.19,
                city="Berlin",
                since=2015,
                why="German travel creator with the right audience, but one video costs most of the YouTube budget",
            ),
            near(
                "tt",
                "kurztrip.kira",
                "Kira Neumann",
                "f",
                "travel",
                ("weekend trips", "budget travel"),
                DE,
                "German",
                430_000,
                city="Frankfurt",
                since=2021,
                why="German weekend-trip creator, but TikTok-only; the brief is YouTube and Instagram",
            ),
            near(
                "yt",
                "luxusreisen_vera",
                "Vera Lindemann",
                "f",
                "travel",
                ("luxury travel", "long-haul flights", "resorts"),
                DE,
                "German",
                360_000,
                city="Düsseldorf",
                since=2016,
                age=(1, 8, 24, 30, 37),
                why="German travel channel, but luxury long-haul content for an older audience; off-brief for "
                "sustainable weekend trips",
            ),
        ],
    ),
    (
        "mk-app-focusden-productivity",
        [
            pick(
                "yt",
                "deskdiaries_nora",
                "Nora Castellanos",
                "f",
                "productivity",
                ("study systems", "note-taking", "deep work"),
                US,
                "English",
                640_000,
                city="Austin, Texas",
                since=2018,
                note="Screen-recorded workflow videos: her weekly review, her notes, her timer. Calm, anti-hustle tone; "
                "viewers are students and early-career knowledge workers.",
                collabs=[
                    ("Planora", "productivity app"),
                    ("Inkling Notes", "productivity app"),
                    ("Cloudnest Storage", "software company"),
                ],
            ),
            pick(
                "yt",
                "themindfulstack",
                "Ethan Brooks",
                "m",
                "productivity",
                ("note-taking", "knowledge management"),
                US,
                "English",
                380_000,
                city="Portland, Oregon",
                since=2019,
            ),
            pick(
                "yt",
                "studywithjules",
                "Julia Bennett",
                "f",
                "education",
                ("study with me", "Pomodoro", "university life"),
                UK,
                "English",
                910_000,
                age=(14, 48, 28, 7, 3),
                city="London",
                since=2017,
                note="Live 'study with me' sessions with a Pomodoro timer on screen; Oxford medicine graduate.",
            ),
            pick(
                "yt",
                "slowproductive_ava",
                "Ava Thornbury",
                "f",
                "productivity",
                ("slow productivity", "planning"),
                UK,
                "English",
                220_000,
                city="Bristol",
                since=2020,
            ),
            pick(
                "yt",
                "codeandcoffee_liam",
                "Liam Fraser",
                "m",
                "productivity",
                ("developer productivity", "workflows", "remote work"),
                CA,
                "English",
                260_000,
                city="Vancouver, British Columbia",
                since=2019,
            ),
            pick(
                "yt",
                "organisedolivia",
                "Olivia Kemp",
                "f",
                "productivity",
                ("digital planning", "time blocking"),
                AU,
                "English",
                175_000,
                city="Melbourne",
                since=2020,
            ),
            near(
                "tt",
                "riseandgrind_rory",
                "Rory Kane",
                "m",
                "productivity",
                ("hustle culture", "morning routines"),
                US,
                "English",
                1_400_000,
                city="Miami, Florida",
                since=2021,
                why="large productivity audience, but TikTok-only and hustle-culture content the brief rules out",
            ),
            near(
                "yt",
                "jiwoo.studylog",
                "Han Ji-woo",
                "f",
                "education",
                ("study with me", "study vlogs"),
                KR,
                "Korean",
                720_000,
                city="Seoul",
                since=2019,
                why="popular study-with-me channel, but Korean-language with a Korean audience",
            ),
            near(
                "yt",
                "productivitypro_max",
                "Max Delaney",
                "m",
                "productivity",
                ("productivity apps", "self-improvement"),
                US,
                "English",
                4_400_000,
                vr=0.18,
                city="Los Angeles, California",
                since=2016,
                why="the biggest channel in the niche, but one integration is far over the per-creator budget",
            ),
            near(
                "ig",
                "aesthetic.notes.by.em",
                "Emily Harper",
                "f",
                "productivity",
                ("note-taking", "digital planning"),
                US,
                "English",
                530_000,
                city="Boston, Massachusetts",
                since=2020,
                why="right audience, but Instagram-only; the brief is YouTube only",
            ),
        ],
    ),
    (
        "mk-app-liman-wallet-turkey",
        [
            pick(
                "yt",
                "kriptoilkadim",
                "Emre Yıldız",
                "m",
                "crypto",
                ("crypto basics", "wallet security"),
                TR,
                "Turkish",
                420_000,
                city="İstanbul",
                since=2019,
                age=(0, 22, 42, 24, 12),
                note="Beginner-friendly crypto in Turkish: how to set up a wallet, how to back up a seed phrase, how "
                "to spot scams. Every sponsored video opens with a risk disclaimer. Audience is 18+ by channel "
                "setting.",
            ),
            pick(
                "yt",
                "paraveteknoloji",
                "Selin Aydın",
                "f",
                "personal finance",
                ("fintech", "saving", "inflation hedging"),
                TR,
                "Turkish",
                310_000,
                city="İzmir",
                since=2020,
                age=(0, 24, 42, 22, 12),
            ),
            pick(
                "yt",
                "zincirhoca_burak",
                "Burak Demir",
                "m",
                "crypto",
                ("blockchain explained", "crypto basics"),
                TR,
                "Turkish",
                260_000,
                city="Ankara",
                since=2018,
                age=(0, 20, 44, 24, 12),
                note="A computer-engineering lecturer who explains how blockchains work; slow, whiteboard style.",
            ),
            pick(
                "tt",
                "kriptosozluk",
                "Deniz Kaya",
                "m",
                "crypto",
                ("crypto glossary", "scam awareness"),
                TR,
                "Turkish",
                540_000,
                city="İstanbul",
                since=2021,
                age=(0, 34, 40, 18, 8),
            ),
            pick(
                "tt",
                "cebindekiekonomi",
                "Merve Çelik",
                "f",
                "personal finance",
                ("inflation", "budgeting", "saving"),
                TR,
                "Turkish",
                380_000,
                city="Bursa",
                since=2021,
                age=(0, 36, 40, 16, 8),
            ),
            near(
                "tt",
                "kriptolambo_kaan",
                "Kaan Arslan",
                "m",
                "crypto",
                ("trading", "signals"),
                TR,
                "Turkish",
                760_000,
                age=(31, 42, 18, 6, 3),
                city="Antalya",
                since=2021,
                why="Turkish crypto creator, but sells trading signals and a third of the audience is under 18",
            ),
            near(
                "yt",
                "blockbrief_ben",
                "Ben Carter",
                "m",
                "crypto",
                ("crypto basics", "wallet security"),
                US,
                "English",
                640_000,
                city="Denver, Colorado",
                since=2018,
                why="good beginner wallet content, but English-language with a US audience",
            ),
            near(
                "ig",
                "kripto.ebru",
                "Ebru Şahin",
                "f",
                "crypto",
                ("crypto basics", "fintech"),
                TR,
                "Turkish",
                290_000,
                city="İstanbul",
                since=2020,
                why="Turkish crypto educator but on Instagram; the brief is YouTube and TikTok",
            ),
            near(
                "yt",
                "ekonomist_oguz",
                "Oğuz Tan",
                "m",
                "personal finance",
                ("economy", "markets", "investing basics"),
                TR,
                "Turkish",
                4_600_000,
                vr=0.19,
                city="İstanbul",
                since=2015,
                why="Turkish finance audience, but one integration costs about half of the YouTube budget",
            ),
        ],
    ),
    (
        "mk-app-colibri-neobank-mexico",
        [
            pick(
                "tt",
                "finanzasconfer",
                "Fernanda Ruiz",
                "f",
                "personal finance",
                ("budgeting", "credit scores", "first bank account"),
                MX,
                "Spanish",
                890_000,
                city="Ciudad de México",
                since=2020,
                note="Explains bank fees, CAT and the buró de crédito in one-minute videos; her followers are mostly "
                "18-30 and opening their first accounts.",
                collabs=[("Plenapay", "digital bank"), ("Centwise Money", "budgeting app")],
            ),
            pick(
                "tt",
                "eldineroconmemo",
                "Guillermo Salas",
                "m",
                "personal finance",
                ("saving", "credit cards"),
                MX,
                "Spanish",
                1_200_000,
                city="Monterrey",
                since=2020,
                note="Goes by Memo. Reviews credit cards and debit accounts honestly, including their fees.",
            ),
            pick(
                "yt",
                "lanaclara_mx",
                "Daniela Ortega",
                "f",
                "personal finance",
                ("personal finance basics", "freelancer taxes"),
                MX,
                "Spanish",
                430_000,
                city="Guadalajara",
                since=2019,
            ),
            pick(
                "yt",
                "invierteconkarla",
                "Karla Mendoza",
                "f",
                "personal finance",
                ("investing basics", "CETES", "saving"),
                MX,
                "Spanish",
                620_000,
                city="Querétaro",
                since=2018,
            ),
            pick(
                "tt",
                "freelancermx_ivan",
                "Iván Castillo",
                "m",
                "personal finance",
                ("freelancing", "side hustles"),
                MX,
                "Spanish",
                350_000,
                city="Puebla",
                since=2021,
            ),
            pick(
                "tt",
                "quincenaconana",
                "Ana Lucía Gómez",
                "f",
                "personal finance",
                ("budgeting", "quincena budgeting"),
                MX,
                "Spanish",
                510_000,
                city="Mérida",
                since=2021,
            ),
            pick(
                "yt",
                "pesoapeso_rodrigo",
                "Rodrigo Treviño",
                "m",
                "personal finance",
                ("debt", "consumer rights"),
                MX,
                "Spanish",
                280_000,
                city="Monterrey",
                since=2019,
            ),
            near(
                "tt",
                "ahorraconlucia",
                "Lucía Navarro",
                "f",
                "personal finance",
                ("saving", "budgeting"),
                ES,
                "Spanish",
                610_000,
                city="Valencia",
                since=2020,
                why="Spanish-language finance creator, but based in Spain with a Spanish (EUR) audience",
            ),
            near(
                "yt",
                "mifamiliaylasfinanzas",
                "Carlos Mejía",
                "m",
                "personal finance",
                ("budgeting", "credit scores"),
                US,
                "Spanish",
                540_000,
                city="Houston, Texas",
                since=2019,
                why="Spanish-language finance channel, but for US Hispanics; audience mostly in the United States",
            ),
            near(
                "tt",
                "elbeto.picks",
                "Alberto Sandoval",
                "m",
                "personal finance",
                ("sports betting", "side hustles"),
                MX,
                "Spanish",
                980_000,
                city="Guadalajara",
                since=2021,
                collabs=[
                    (
                        "Apuesta Rápida",
                        "betting app",
                        2026,
                        "three-video series",
                        "ran through the football season, February to April 2026",
                    ),
                    ("Quickcart", "delivery app"),
                ],
                why="young Mexican money audience, but promoted a betting app in the last six months",
            ),
            near(
                "ig",
                "finanzas.mx.pau",
                "Paulina Rivas",
                "f",
                "personal finance",
                ("budgeting", "saving"),
                MX,
                "Spanish",
                470_000,
                city="Ciudad de México",
                since=2020,
                why="right audience and market, but Instagram-only; the brief is TikTok and YouTube",
            ),
        ],
    ),
    (
        "mk-app-kilaycam-beauty-ph",
        [
            pick(
                "tt",
                "makeupnibea",
                "Bea Santos",
                "f",
                "beauty",
                ("drugstore makeup", "morena beauty"),
                PH,
                "Filipino",
                1_100_000,
                city="Quezon City",
                since=2020,
                note="Taglish tutorials with drugstore products for morena skin tones; often films in jeepneys and "
                "malls. Audience 16-30, mostly Metro Manila and Cebu.",
            ),
            pick(
                "tt",
                "browsbyjoanna",
                "Joanna Villanueva",
                "f",
                "beauty",
                ("brows", "makeup tutorials"),
                PH,
                "Filipino",
                640_000,
                city="Pasig",
                since=2021,
            ),
            pick(
                "tt",
                "glowupnikat",
                "Katrina Reyes",
                "f",
                "beauty",
                ("skincare", "glow-up transformations"),
                PH,
                "Filipino",
                880_000,
                city="Cebu City",
                since=2020,
            ),
            pick(
                "ig",
                "morenamakeup.ella",
                "Ella Bautista",
                "f",
                "beauty",
                ("morena makeup", "lipstick swatches"),
                PH,
                "Filipino",
                310_000,
                city="Davao City",
                since=2019,
            ),
            pick(
                "ig",
                "joymendoza.beauty",
                "Joy Mendoza",
                "f",
                "beauty",
                ("budget beauty", "hauls"),
                PH,
                "English",
                220_000,
                city="Makati",
                since=2019,
            ),
            pick(
                "tt",
                "paolo.glam",
                "Paolo Garcia",
                "m",
                "beauty",
                ("makeup artistry", "transformations"),
                PH,
                "Filipino",
                760_000,
                city="Quezon City",
                since=2020,
                note="A makeup artist doing dramatic transformations on friends and viewers; audience mostly women.",
            ),
            pick(
                "tt",
                "pambaonlooks",
                "Mika Aquino",
                "f",
                "beauty",
                ("student makeup", "5-minute looks"),
                PH,
                "Filipino",
                450_000,
                city="Iloilo City",
                since=2022,
                age=(30, 46, 16, 6, 2),
            ),
            near(
                "tt",
                "makeupcungthao",
                "Nguyễn Phương Thảo",
                "f",
                "beauty",
                ("makeup tutorials", "drugstore makeup"),
                VN,
                "Vietnamese",
                930_000,
                city="TP. Hồ Chí Minh",
                since=2020,
                why="same tutorial format, but Vietnamese-language with an audience in Vietnam",
            ),
            near(
                "yt",
                "ateangelmakeup",
                "Angelica Ramos",
                "f",
                "beauty",
                ("makeup tutorials", "reviews"),
                PH,
                "Filipino",
                1_500_000,
                city="Quezon City",
                since=2016,
                why="Filipino beauty creator with the right audience, but on YouTube; the brief is TikTok and Instagram",
            ),
            near(
                "tt",
                "gandangkylie",
                "Kylie Navarro",
                "f",
                "beauty",
                ("makeup", "celebrity lifestyle"),
                PH,
                "Filipino",
                12_800_000,
                vr=0.3,
                city="Makati",
                since=2017,
                why="huge Filipino beauty reach, but a single video costs most of the budget",
            ),
            near(
                "tt",
                "glitter.genz.rhea",
                "Rhea Soriano",
                "f",
                "beauty",
                ("teen makeup", "glitter looks"),
                PH,
                "Filipino",
                520_000,
                age=(58, 32, 7, 2, 1),
                city="Baguio",
                since=2023,
                why="Filipino makeup creator, but the audience is mostly 13-17, above the brief's limit",
            ),
        ],
    ),
    (
        "mk-app-kobojar-savings-ng",
        [
            pick(
                "yt",
                "tobiknowsmoney",
                "Oluwatobi Adeyemi",
                "m",
                "personal finance",
                ("saving", "investing basics", "naira inflation"),
                NG,
                "English",
                380_000,
                city="Lagos",
                since=2019,
                note="Explains saving and investing when prices rise every month; checks every platform's SEC "
                "registration on screen before he mentions it. Audience 20-35, Lagos and Abuja.",
            ),
            pick(
                "yt",
                "savewithadaeze",
                "Adaeze Okonkwo",
                "f",
                "personal finance",
                ("budgeting", "saving"),
                NG,
                "English",
                210_000,
                city="Lagos",
                since=2020,
            ),
            pick(
                "ig",
                "thefinanceaunty_ng",
                "Chioma Eze",
                "f",
                "personal finance",
                ("money tips for women", "saving"),
                NG,
                "English",
                290_000,
                city="Abuja",
                since=2020,
            ),
            pick(
                "ig",
                "lagoshustlebook",
                "Emeka Nwosu",
                "m",
                "personal finance",
                ("side hustles", "small business"),
                NG,
                "English",
                170_000,
                city="Lagos",
                since=2021,
            ),
            pick(
                "tt",
                "pidginmoneyschool",
                "Kelechi Obi",
                "m",
                "personal finance",
                ("money explainers", "saving"),
                NG,
                "English",
                620_000,
                city="Port Harcourt",
                since=2021,
                note="Explains money in Nigerian Pidgin, with English captions; big reach among students and young "
                "workers.",
            ),
            pick(
                "tt",
                "campusbudget_ife",
                "Ifeoluwa Bakare",
                "f",
                "personal finance",
                ("student budgeting", "saving"),
                NG,
                "English",
                330_000,
                city="Ibadan",
                since=2022,
            ),
            near(
                "tt",
                "dayo.cashflow",
                "Dayo Akande",
                "m",
                "personal finance",
                ("investing", "side hustles"),
                NG,
                "English",
                880_000,
                city="Lagos",
                since=2021,
                collabs=[
                    (
                        "Goldspring Ajo",
                        "investment scheme",
                        2025,
                        "three-video series",
                        "the scheme stopped paying out months later; the videos were deleted",
                    ),
                    ("Quickcart", "delivery app"),
                ],
                avail="Posted about the Goldspring Ajo scheme in 2025, before it stopped paying out; the videos were "
                "later deleted.",
                why="Nigerian money audience, but promoted a 'double your money' scheme that collapsed",
            ),
            near(
                "yt",
                "diasporamoney_uk",
                "Funmilayo Ajayi",
                "f",
                "personal finance",
                ("saving", "sending money home"),
                UK,
                "English",
                260_000,
                city="London",
                since=2019,
                why="Nigerian creator, but UK-based with a mostly UK diaspora audience",
            ),
            near(
                "ig",
                "laughwithbamidele",
                "Bamidele Ojo",
                "m",
                "comedy",
                ("sketches", "relatable skits"),
                NG,
                "English",
                7_400_000,
                vr=0.22,
                city="Lagos",
                since=2016,
                why="huge Nigerian reach, but a comedian and far over the per-creator budget",
            ),
        ],
    ),
    (
        "mk-app-slumbersmith-sleep-au",
        [
            pick(
                "ig",
                "sleepnurse.kate",
                "Kate Morrison",
                "f",
                "health",
                ("sleep", "shift work"),
                AU,
                "English",
                140_000,
                city="Brisbane",
                since=2020,
                note="A registered nurse who worked nights for ten years; evidence-based sleep tips, cites studies in "
                "captions.",
            ),
            pick(
                "ig",
                "dr.amira.sleep",
                "Amira Haddad",
                "f",
                "health",
                ("sleep medicine", "sleep"),
                AU,
                "English",
                260_000,
                city="Sydney",
                since=2019,
                note="A GP with a special interest in sleep; explains tracking data and when to see a doctor.",
            ),
            pick(
                "yt",
                "nightshiftnathan",
                "Nathan Cooper",
                "m",
                "health",
                ("shift work", "sleep", "nurse life"),
                AU,
                "English",
                190_000,
                city="Perth",
                since=2020,
            ),
            pick(
                "ig",
                "bubandbedtime",
                "Georgia Fitzgerald",
                "f",
                "parenting",
                ("sleep routines", "newborn care"),
                AU,
                "English",
                310_000,
                city="Melbourne",
                since=2019,
            ),
            near(
                "yt",
                "sleepdrjoel",
                "Joel Bernstein",
                "m",
                "health",
                ("sleep", "sleep medicine"),
                US,
                "English",
                850_000,
                city="Boston, Massachusetts",
                since=2018,
                why="evidence-based sleep channel, but US-based with a US audience",
            ),
            near(
                "tt",
                "sleepytok_mel",
                "Melanie Vu",
                "f",
                "health",
                ("sleep", "routines"),
                AU,
                "English",
                420_000,
                city="Adelaide",
                since=2021,
                why="Australian sleep creator, but TikTok-only; the brief is Instagram and YouTube",
            ),
            near(
                "ig",
                "biohacker_brody",
                "Brody Walsh",
                "m",
                "health",
                ("biohacking", "supplements", "sleep"),
                AU,
                "English",
                1_700_000,
                vr=0.3,
                city="Gold Coast",
                since=2018,
                collabs=[("Vitawren", "wellness brand"), ("Deepnight Magnesium Gummies", "supplement brand")],
                why="Australian sleep content, but over budget and built around supplement sales",
            ),
        ],
    ),
    (
        "mk-app-capoclub-guitar",
        [
            pick(
                "yt",
                "porchguitarpete",
                "Pete Harlan",
                "m",
                "music",
                ("guitar lessons", "acoustic guitar", "beginner songs"),
                US,
                "English",
                520_000,
                city="Nashville, Tennessee",
                since=2016,
                age=(3, 12, 24, 28, 33),
                note="Teaches from his porch with an old acoustic; many of his viewers are adults in their forties and "
                "fifties picking the guitar up again.",
                titles=[
                    "Your first 4 chords (and 12 songs that use them)",
                    "Strumming patterns for real beginners",
                    "I'm 50 and learning guitar: viewer stories",
                    "Fingerpicking in 10 minutes a day",
                ],
            ),
            pick(
                "yt",
                "fionaplaysfolk",
                "Fiona McAllister",
                "f",
                "music",
                ("fingerstyle", "folk songs", "guitar lessons"),
                UK,
                "English",
                240_000,
                city="Glasgow",
                since=2018,
                age=(2, 12, 26, 28, 32),
            ),
            pick(
                "yt",
                "threechordtheo",
                "Theo Gallagher",
                "m",
                "music",
                ("easy songs", "strumming patterns", "guitar lessons"),
                UK,
                "English",
                390_000,
                city="Manchester",
                since=2017,
                age=(4, 16, 28, 26, 26),
            ),
            pick(
                "tt",
                "guitarwithgabe",
                "Gabriel Ortiz",
                "m",
                "music",
                ("60-second guitar lessons", "riffs", "guitar lessons"),
                US,
                "English",
                880_000,
                city="San Antonio, Texas",
                since=2020,
            ),
            pick(
                "tt",
                "strumat40",
                "Karen Whitlock",
                "f",
                "music",
                ("learning guitar", "progress diaries"),
                US,
                "English",
                310_000,
                city="Columbus, Ohio",
                since=2022,
                age=(2, 10, 26, 32, 30),
                note="Started guitar at 41 and posts her progress every week; comments are full of other late "
                "beginners.",
            ),
            pick(
                "yt",
                "deltabluesdwayne",
                "Dwayne Pickett",
                "m",
                "music",
                ("blues guitar", "slide guitar", "guitar lessons"),
                US,
                "English",
                180_000,
                city="Memphis, Tennessee",
                since=2018,
                age=(1, 8, 22, 30, 39),
            ),
            near(
                "yt",
                "shredacademy_kai",
                "Kai Rasmussen",
                "m",
                "music",
                ("shred guitar", "metal", "guitar lessons"),
                US,
                "English",
                760_000,
                age=(32, 44, 16, 5, 3),
                female=9,
                city="Seattle, Washington",
                since=2019,
                why="guitar teacher with a US audience, but advanced shred for teenagers, not adult beginners",
            ),
            near(
                "ig",
                "sophieplaysstrings",
                "Sophie Lang",
                "f",
                "music",
                ("guitar covers", "acoustic guitar"),
                US,
                "English",
                640_000,
                city="Los Angeles, California",
                since=2019,
                why="acoustic guitar content with the right audience, but Instagram-only",
            ),
            near(
                "yt",
                "violaocomdiego",
                "Diego Fontes",
                "m",
                "music",
                ("guitar lessons", "MPB"),
                BR,
                "Portuguese",
                1_300_000,
                city="Belo Horizonte",
                since=2016,
                why="beginner guitar lessons, but in Portuguese for a Brazilian audience",
            ),
            near(
                "yt",
                "masterclassmick",
                "Mick Danvers",
                "m",
                "music",
                ("guitar lessons", "rock guitar"),
                US,
                "English",
                5_200_000,
                vr=0.2,
                city="Los Angeles, California",
                since=2012,
                why="the best-known guitar teacher on the platform, but far over the per-creator budget",
            ),
        ],
    ),
    (
        "mk-app-balise-hiking-france",
        [
            pick(
                "yt",
                "randoaveclucas",
                "Lucas Bernard",
                "m",
                "outdoor",
                ("hiking", "GR trails", "thru-hiking"),
                FR,
                "French",
                340_000,
                city="Grenoble",
                since=2018,
                note="Long GR trail films (GR20, GR10, GR5) with daily stage maps; insists on leave-no-trace and "
                "bivouac rules in every video.",
                titles=[
                    "GR20 in 12 days: every stage explained",
                    "Bivouac in the Écrins: what is allowed",
                    "My route planning, step by step",
                    "GR10 on a budget: 40 days, 1,200 euros",
                ],
            ),
            pick(
                "yt",
                "bivouac_margaux",
                "Margaux Lefèvre",
                "f",
                "outdoor",
                ("bivouac", "ultralight", "hiking"),
                FR,
                "French",
                210_000,
                city="Annecy",
                since=2019,
            ),
            pick(
                "ig",
                "camille.en.montagne",
                "Camille Girard",
                "f",
                "outdoor",
                ("alpine hiking", "mountain photography"),
                FR,
                "French",
                290_000,
                city="Chamonix",
                since=2018,
            ),
            pick(
                "ig",
                "famille.rando",
                "Julien & Élodie Durand",
                "duo",
                "outdoor",
                ("family hiking", "hiking"),
                FR,
                "French",
                150_000,
                city="Clermont-Ferrand",
                since=2020,
            ),
            pick(
                "yt",
                "damien.pyrenees",
                "Damien Laborde",
                "m",
                "outdoor",
                ("Pyrenees", "trail running", "hiking"),
                FR,
                "French",
                180_000,
                city="Pau",
                since=2019,
            ),
            near(
                "yt",
                "bergzeit_basti",
                "Sebastian Huber",
                "m",
                "outdoor",
                ("hiking", "Alps"),
                DE,
                "German",
                390_000,
                city="München",
                since=2018,
                why="alpine hiking channel, but German-language with a German audience",
            ),
            near(
                "ig",
                "hikingwithhazel",
                "Hazel Pritchard",
                "f",
                "outdoor",
                ("hiking", "wild camping"),
                UK,
                "English",
                230_000,
                city="Cardiff",
                since=2019,
                why="hiking content with the right audience age, but English-language and UK-based",
            ),
            near(
                "tt",
                "randotok_ines",
                "Inès Moreau",
                "f",
                "outdoor",
                ("hiking", "bivouac"),
                FR,
                "French",
                480_000,
                city="Toulouse",
                since=2021,
                why="French hiker, but TikTok-only; the brief is YouTube and Instagram",
            ),
            near(
                "yt",
                "aventurier.extreme",
                "Antoine Delmas",
                "m",
                "outdoor",
                ("expeditions", "survival"),
                FR,
                "French",
                4_500_000,
                vr=0.19,
                city="Marseille",
                since=2015,
                why="French outdoor audience, but one integration costs nearly half of the budget",
            ),
        ],
    ),
]

HAND_GROUPS += [
    (
        "mk-game-emberfall-oathbound-sea",
        [
            pick(
                "yt",
                "rizkymainrpg",
                "Rizky Saputra",
                "m",
                "gaming",
                ("mobile gaming", "RPGs", "gacha games"),
                ID,
                "Indonesian",
                1_800_000,
                city="Bandung",
                since=2017,
                note="Indonesia's go-to mobile RPG explainer: launch-day guides, tier lists and long live streams on "
                "Friday nights. Has covered three global RPG launches for their SEA pre-registration pushes.",
                collabs=[
                    ("Starhollow Games", "game studio"),
                    ("Riftcore", "gaming peripherals brand"),
                    ("Orbitel", "mobile carrier"),
                ],
                titles=[
                    "Tier list after patch 2.4: who to pull",
                    "Free-to-play guide, day 1 to day 30",
                    "LIVE: new server launch, grinding to level 60",
                    "Best team for new players (Bahasa Indonesia)",
                ],
            ),
            pick(
                "yt",
                "jagoan.gacha",
                "Andi Firmansyah",
                "m",
                "gaming",
                ("gacha games", "tier lists", "mobile gaming"),
                ID,
                "Indonesian",
                920_000,
                city="Surabaya",
                since=2018,
            ),
            pick(
                "tt",
                "putri.main.game",
                "Putri Anggraini",
                "f",
                "gaming",
                ("mobile gaming", "cosplay", "RPGs"),
                ID,
                "Indonesian",
                1_300_000,
                city="Jakarta",
                since=2020,
            ),
            pick(
                "tt",
                "mabar.bareng.yoga",
                "Yoga Prasetyo",
                "m",
                "gaming",
                ("MOBA", "RPGs", "live streams"),
                ID,
                "Indonesian",
                760_000,
                city="Medan",
                since=2020,
            ),
            pick(
                "yt",
                "renzplaysph",
                "Renz Manalo",
                "m",
                "gaming",
                ("mobile gaming", "MMORPG", "RPGs"),
                PH,
                "Filipino",
                1_100_000,
                city="Cebu City",
                since=2017,
                note="Taglish MMORPG and mobile RPG guides; streams four nights a week with a loyal guild community.",
            ),
            pick(
                "yt",
                "jmgachaph",
                "John Michael Dizon",
                "m",
                "gaming",
                ("gacha games", "reviews", "mobile gaming"),
                PH,
                "Filipino",
                450_000,
                city="Quezon City",
                since=2019,
            ),
            pick(
                "tt",
                "pinoygamerpia",
                "Pia Santiago",
                "f",
                "gaming",
                ("mobile gaming", "funny moments"),
                PH,
                "Filipino",
                870_000,
                city="Davao City",
                since=2020,
            ),
            pick(
                "tt",
                "ginopascual.gg",
                "Gino Pascual",
                "m",
                "gaming",
                ("RPG guides", "mobile gaming"),
                PH,
                "Filipino",
                390_000,
                city="Baguio",
                since=2021,
            ),
            pick(
                "yt",
                "chaiwatplays",
                "Chaiwat Srisuk",
                "m",
                "gaming",
                ("mobile gaming", "RPGs", "live streams"),
                TH,
                "Thai",
                1_400_000,
                city="Bangkok",
                since=2016,
            ),
            pick(
                "tt",
                "ploy.gamer",
                "Ploy Wongsawat",
                "f",
                "gaming",
                ("mobile gaming", "RPGs"),
                TH,
                "Thai",
                680_000,
                city="Chiang Mai",
                since=2020,
            ),
            pick(
                "yt",
                "tonkla.rpg",
                "Tonkla Boonmee",
                "m",
                "gaming",
                ("RPGs", "reviews", "mobile gaming"),
                TH,
                "Thai",
                330_000,
                city="Khon Kaen",
                since=2019,
            ),
            pick(
                "yt",
                "minhquoc.gaming",
                "Trần Quốc Minh",
                "m",
                "gaming",
                ("mobile gaming", "RPGs"),
                VN,
                "Vietnamese",
                1_250_000,
                city="TP. Hồ Chí Minh",
                since=2017,
            ),
            pick(
                "tt",
                "linhgamer.vn",
                "Phạm Thùy Linh",
                "f",
                "gaming",
                ("gacha games", "cosplay", "mobile gaming"),
                VN,
                "Vietnamese",
                590_000,
                city="Hà Nội",
                since=2020,
            ),
            pick(
                "yt",
                "huyrpgvn",
                "Lê Gia Huy",
                "m",
                "gaming",
                ("MMORPG", "guides", "mobile gaming"),
                VN,
                "Vietnamese",
                410_000,
                city="Đà Nẵng",
                since=2019,
            ),
            near(
                "tt",
                "fajar.epicplays",
                "Fajar Nugroho",
                "m",
                "gaming",
                ("mobile gaming", "MOBA"),
                ID,
                "Indonesian",
                980_000,
                age=(61, 27, 8, 3, 1),
                city="Semarang",
                since=2021,
                why="Indonesian mobile gamer, but most of the audience is 13-17, below the game's 16+ rating",
            ),
            near(
                "yt",
                "gachagrindtom",
                "Tom Ferris",
                "m",
                "gaming",
                ("gacha games", "RPGs", "mobile gaming"),
                US,
                "English",
                1_050_000,
                city="Columbus, Ohio",
                since=2017,
                why="ideal gacha RPG creator, but English-language with a US audience",
            ),
            near(
                "yt",
                "manilaplays",
                "Joshua Cruz",
                "m",
                "gaming",
                ("mobile gaming", "variety", "live streams"),
                PH,
                "Filipino",
                9_500_000,
                vr=0.15,
                city="Manila",
                since=2014,
                collabs=[
                    ("Crimson Tides", "mobile RPG", 2026, "exclusive content deal", "twelve months, until June 2027"),
                    ("Riftcore", "gaming peripherals brand"),
                    ("Orbitel", "mobile carrier"),
                ],
                avail="Signed a twelve-month exclusive content deal with the publisher of Crimson Tides (mobile RPG) "
                "that runs until June 2027.",
                why="biggest Filipino gaming channel, but under an exclusive deal with a rival mobile RPG until mid-2027",
            ),
            near(
                "ig",
                "reina.cosplays.ph",
                "Reina Manalastas",
                "f",
                "gaming",
                ("cosplay", "mobile gaming"),
                PH,
                "Filipino",
                640_000,
                city="Quezon City",
                since=2019,
                female=48,
                why="Filipino gaming cosplayer, but on Instagram; the brief is YouTube and TikTok",
            ),
            near(
                "yt",
                "aek.aimlab",
                "Ekkachai Phromma",
                "m",
                "gaming",
                ("PC gaming", "shooters", "esports"),
                TH,
                "Thai",
                870_000,
                city="Bangkok",
                since=2018,
                why="Thai gaming audience, but PC shooters only; no mobile or RPG content",
            ),
        ],
    ),
    (
        "mk-game-willowbrook-acres-cozy",
        [
            pick(
                "yt",
                "cozywithclementine",
                "Clementine Hart",
                "f",
                "gaming",
                ("cozy games", "farming sims", "Let's Plays"),
                US,
                "English",
                720_000,
                city="Portland, Oregon",
                since=2018,
                note="Long, gentle Let's Plays of farming and life sims on Switch and PC, with lo-fi music and no "
                "jump cuts. Her audience is mostly women 18-34 who watch to unwind.",
                collabs=[
                    ("Pixelhowl Studio", "game studio"),
                    ("Starhollow Games", "game studio"),
                    ("Brewlight Coffee", "snack and drink brand"),
                ],
                titles=[
                    "Cozy farming day 1: building the greenhouse",
                    "Spring festival 100% guide (no commentary)",
                    "My Switch setup for cozy nights",
                    "Wholesome games coming this autumn",
                ],
            ),
            pick(
                "yt",
                "mossymarigold",
                "Marigold Evans",
                "f",
                "gaming",
                ("cozy games", "Switch", "life sims"),
                UK,
                "English",
                310_000,
                city="Bristol",
                since=2019,
            ),
            pick(
                "yt",
                "pixelpumpkinpatch",
                "Jamie Holt",
                "m",
                "gaming",
                ("farming sims", "cozy games", "modded playthroughs"),
                US,
                "English",
                460_000,
                city="Salt Lake City, Utah",
                since=2017,
            ),
            pick(
                "yt",
                "teacupgamer_au",
                "Isabelle Nguyen",
                "f",
                "gaming",
                ("cozy games", "life sims"),
                AU,
                "English",
                190_000,
                city="Adelaide",
                since=2020,
            ),
            pick(
                "tt",
                "cozygamerbecca",
                "Rebecca Lowe",
                "f",
                "gaming",
                ("cozy games", "cozy setups", "game recs"),
                US,
                "English",
                950_000,
                city="Minneapolis, Minnesota",
                since=2020,
            ),
            pick(
                "tt",
                "switchcottage",
                "Maisie Coleman",
                "f",
                "gaming",
                ("cozy games", "Switch setups"),
                UK,
                "English",
                430_000,
                city="York",
                since=2021,
            ),
            pick(
                "tt",
                "farmsimfinn",
                "Finn O'Reilly",
                "m",
                "gaming",
                ("farming sims", "cozy games", "tips"),
                CA,
                "English",
                280_000,
                city="Halifax, Nova Scotia",
                since=2021,
            ),
            pick(
                "ig",
                "cozycorner.gaming",
                "Bethany Cross",
                "f",
                "gaming",
                ("cozy games", "desk setups"),
                US,
                "English",
                360_000,
                city="Raleigh, North Carolina",
                since=2019,
            ),
            pick(
                "ig",
                "pastelpixels.play",
                "Chloe Tanaka",
                "f",
                "gaming",
                ("cozy games", "pastel setups"),
                CA,
                "English",
                210_000,
                city="Vancouver, British Columbia",
                since=2020,
            ),
            near(
                "yt",
                "tryhardtravis",
                "Travis Boone",
                "m",
                "gaming",
                ("shooters", "competitive", "PC gaming"),
                US,
                "English",
                890_000,
                city="Dallas, Texas",
                since=2017,
                why="US gaming channel of the right size, but competitive shooters for a young male audience",
            ),
            near(
                "yt",
                "gemuetlich.zocken",
                "Lisa Becker",
                "f",
                "gaming",
                ("cozy games", "life sims"),
                DE,
                "German",
                340_000,
                city="Hannover",
                since=2019,
                why="cozy games for the right audience, but German-language with a German audience",
            ),
            near(
                "tt",
                "dani.cozyverse",
                "Danielle Ford",
                "f",
                "gaming",
                ("cozy games", "game recs"),
                US,
                "English",
                6_800_000,
                vr=0.3,
                city="Los Angeles, California",
                since=2019,
                why="the largest cozy-games account, but far over the per-creator budget",
            ),
            near(
                "yt",
                "blockbuddy.bryce",
                "Bryce Hadley",
                "m",
                "gaming",
                ("block games", "farming builds", "kids' content"),
                US,
                "English",
                1_300_000,
                age=(72, 18, 6, 3, 1),
                city="Omaha, Nebraska",
                since=2019,
                why="farming-build videos, but the audience is mostly under 18",
            ),
        ],
    ),
    (
        "mk-game-ironclad-meridian-eu",
        [
            pick(
                "yt",
                "strategiestube",
                "Konrad Vogel",
                "m",
                "gaming",
                ("grand strategy", "PC gaming", "history"),
                DE,
                "German",
                380_000,
                city="Leipzig",
                since=2016,
                note="Hour-long grand strategy campaigns with historical context; streams on weekends. Viewers are "
                "mostly men 25-44 who watch start to finish.",
                collabs=[("Frostpine Interactive", "game studio"), ("Hexcrown", "game studio")],
            ),
            pick(
                "yt",
                "historischzocken",
                "Matthias Krüger",
                "m",
                "gaming",
                ("historical strategy", "Let's Plays", "PC gaming"),
                DE,
                "German",
                520_000,
                city="Köln",
                since=2015,
            ),
            pick(
                "yt",
                "rundenbasiert_ralf",
                "Ralf Schreiber",
                "m",
                "gaming",
                ("4X", "turn-based strategy", "PC gaming"),
                DE,
                "German",
                170_000,
                city="Stuttgart",
                since=2018,
            ),
            pick(
                "yt",
                "le.grand.stratege",
                "Bastien Morel",
                "m",
                "gaming",
                ("grand strategy", "history", "PC gaming"),
                FR,
                "French",
                460_000,
                city="Lyon",
                since=2016,
            ),
            pick(
                "yt",
                "histoirejouee",
                "Quentin Faure",
                "m",
                "gaming",
                ("historical strategy", "history documentaries", "PC gaming"),
                FR,
                "French",
                290_000,
                city="Bordeaux",
                since=2018,
            ),
            pick(
                "yt",
                "elestrategadepedro",
                "Pedro Ibáñez",
                "m",
                "gaming",
                ("4X", "grand strategy", "PC gaming"),
                ES,
                "Spanish",
                330_000,
                city="Zaragoza",
                since=2017,
            ),
            pick(
                "yt",
                "historiaenpartidas",
                "Álvaro Serrano",
                "m",
                "gaming",
                ("historical strategy", "history", "PC gaming"),
                ES,
                "Spanish",
                240_000,
                city="Sevilla",
                since=2019,
            ),
            near(
                "yt",
                "zockermaxi",
                "Maximilian Frank",
                "m",
                "gaming",
                ("mobile gaming", "challenges"),
                DE,
                "German",
                1_100_000,
                age=(48, 36, 10, 4, 2),
                city="Hannover",
                since=2018,
                why="German gaming channel, but mobile challenges for a teenage audience, not PC strategy",
            ),
            near(
                "yt",
                "warroomwill",
                "William Ashford",
                "m",
                "gaming",
                ("grand strategy", "history", "PC gaming"),
                UK,
                "English",
                610_000,
                city="York",
                since=2016,
                why="ideal grand strategy channel, but English-language and UK-based",
            ),
            near(
                "tt",
                "kurz.strategie",
                "Jan Wolff",
                "m",
                "gaming",
                ("strategy games", "PC gaming"),
                DE,
                "German",
                420_000,
                city="Berlin",
                since=2021,
                why="German strategy content, but TikTok; the brief is YouTube long-form only",
            ),
            near(
                "yt",
                "sergiocastanogames",
                "Sergio Castaño",
                "m",
                "gaming",
                ("variety", "live streams"),
                ES,
                "Spanish",
                8_100_000,
                vr=0.15,
                city="Madrid",
                since=2013,
                why="Spain's biggest variety gamer: not a strategy channel, and a dedicated video costs half the budget",
            ),
        ],
    ),
    (
        "mk-game-mochi-merge-jp-kr",
        [
            pick(
                "tt",
                "yurupuzzle_hana",
                "Hana Kobayashi",
                "f",
                "gaming",
                ("casual games", "puzzle games", "mobile gaming"),
                JP,
                "Japanese",
                720_000,
                city="Tokyo",
                since=2020,
                note="Short, cute puzzle-game clips with handwritten captions; her followers are mostly women in "
                "their twenties and thirties who play on the commute.",
            ),
            pick(
                "yt",
                "kawaii.gameroom",
                "Misaki Endo",
                "f",
                "gaming",
                ("game ASMR", "casual games", "cute games"),
                JP,
                "Japanese",
                410_000,
                city="Osaka",
                since=2019,
            ),
            pick(
                "tt",
                "rin.commutegames",
                "Rin Aoyama",
                "f",
                "gaming",
                ("casual games", "mobile game reviews"),
                JP,
                "Japanese",
                380_000,
                city="Nagoya",
                since=2021,
            ),
            pick(
                "tt",
                "puzzlequeen.seoyeon",
                "Park Seo-yeon",
                "f",
                "gaming",
                ("casual games", "puzzle games"),
                KR,
                "Korean",
                840_000,
                city="Seoul",
                since=2020,
            ),
            pick(
                "yt",
                "haneul.gameasmr",
                "Choi Ha-neul",
                "f",
                "gaming",
                ("game ASMR", "casual games"),
                KR,
                "Korean",
                290_000,
                female=64,
                city="Busan",
                since=2019,
            ),
            pick(
                "tt",
                "doyun.plays",
                "Lee Do-yun",
                "m",
                "gaming",
                ("casual games", "challenges", "mobile gaming"),
                KR,
                "Korean",
                520_000,
                city="Incheon",
                since=2021,
                female=52,
            ),
            near(
                "tt",
                "kawaiigamesemily",
                "Emily Tran",
                "f",
                "gaming",
                ("casual games", "cute games"),
                US,
                "English",
                690_000,
                city="San Jose, California",
                since=2020,
                why="cute casual games for young women, but English-language with a US audience",
            ),
            near(
                "yt",
                "taeyang.ranked",
                "Kang Tae-yang",
                "m",
                "gaming",
                ("MOBA", "ranked", "esports"),
                KR,
                "Korean",
                930_000,
                city="Seoul",
                since=2017,
                why="Korean gaming channel, but competitive ranked play for a young male audience",
            ),
            near(
                "ig",
                "puzzle.nyan",
                "Nanami Sato",
                "f",
                "gaming",
                ("casual games", "puzzle games"),
                JP,
                "Japanese",
                310_000,
                city="Kyoto",
                since=2020,
                why="Japanese casual-game creator, but on Instagram; the brief is TikTok and YouTube",
            ),
            near(
                "tt",
                "daeun.daily",
                "Yoon Da-eun",
                "f",
                "comedy",
                ("daily vlogs", "relatable skits"),
                KR,
                "Korean",
                11_000_000,
                vr=0.3,
                city="Seoul",
                since=2018,
                why="huge Korean reach among young women, but far over budget and not a games creator",
            ),
        ],
    ),
]

HAND_GROUPS += [
    (
        "mk-ecom-morrow-skin-us",
        [
            pick(
                "tt",
                "dermdoclena",
                "Lena Whitford",
                "f",
                "beauty",
                ("dermatology", "sensitive skin", "skin barrier"),
                US,
                "English",
                1_600_000,
                city="Philadelphia, Pennsylvania",
                since=2020,
                note="Board-certified dermatologist (MD). Reviews ingredient lists and tells viewers what not to buy; "
                "only partners with fragrance-free brands. TikTok Shop affiliate since 2024.",
                collabs=[("Solenne Skin", "beauty brand"), ("Dewlane", "beauty brand"), ("Restwell", "wellness brand")],
            ),
            pick(
                "tt",
                "esthetician.amani",
                "Amani Brooks",
                "f",
                "beauty",
                ("esthetician tips", "acne", "skincare"),
                US,
                "English",
                780_000,
                city="Atlanta, Georgia",
                since=2020,
            ),
            pick(
                "tt",
                "barrierbestie",
                "Kelsey Huang",
                "f",
                "beauty",
                ("skin barrier", "eczema", "skincare"),
                US,
                "English",
                420_000,
                city="Seattle, Washington",
                since=2021,
                note="Has eczema herself; tests products for weeks on her own skin and shows flare-ups honestly.",
            ),
            pick(
                "tt",
                "skincarebyrosa",
                "Rosa Delgado",
                "f",
                "beauty",
                ("budget skincare", "routines", "skincare"),
                US,
                "English",
                910_000,
                city="San Antonio, Texas",
                since=2020,
            ),
            pick(
                "tt",
                "ingredientnerd_jo",
                "Joanna Pike",
                "f",
                "beauty",
                ("ingredient breakdowns", "cosmetic chemistry", "skincare"),
                US,
                "English",
                560_000,
                city="Raleigh, North Carolina",
                since=2021,
            ),
            pick(
                "tt",
                "over35skin",
                "Tanya Mercer",
                "f",
                "beauty",
                ("mature skin", "retinol", "skincare"),
                US,
                "English",
                350_000,
                city="Denver, Colorado",
                since=2021,
            ),
            pick(
                "tt",
                "pharmacistpaige",
                "Paige Donnelly",
                "f",
                "beauty",
                ("pharmacist", "OTC skincare", "skincare"),
                US,
                "English",
                520_000,
                city="Columbus, Ohio",
                since=2021,
            ),
            pick(
                "ig",
                "glasskin.gabby",
                "Gabriela Rios",
                "f",
                "beauty",
                ("skincare routines", "shelfies", "skincare"),
                US,
                "English",
                480_000,
                city="Miami, Florida",
                since=2019,
            ),
            pick(
                "ig",
                "eczemaandme.nat",
                "Natalie Frost",
                "f",
                "beauty",
                ("eczema", "sensitive skin", "skincare"),
                US,
                "English",
                190_000,
                city="Minneapolis, Minnesota",
                since=2020,
            ),
            pick(
                "ig",
                "skin.school.sienna",
                "Sienna Moore",
                "f",
                "beauty",
                ("skincare education", "skincare"),
                US,
                "English",
                620_000,
                city="Austin, Texas",
                since=2018,
                note="Licensed esthetician; her carousels explain one ingredient at a time and are saved heavily.",
            ),
            pick(
                "ig",
                "minimalist.skin.mia",
                "Mia Castillo",
                "f",
                "beauty",
                ("minimalist skincare", "skincare"),
                US,
                "English",
                270_000,
                city="San Diego, California",
                since=2020,
            ),
            pick(
                "ig",
                "deepertones.imani",
                "Imani Wallace",
                "f",
                "beauty",
                ("hyperpigmentation", "skincare for deeper skin tones", "skincare"),
                US,
                "English",
                410_000,
                city="Chicago, Illinois",
                since=2019,
            ),
            near(
                "tt",
                "fullbeatbrittany",
                "Brittany Hayes",
                "f",
                "beauty",
                ("full-glam makeup", "makeup tutorials"),
                US,
                "English",
                1_200_000,
                age=(34, 44, 14, 5, 3),
                city="Las Vegas, Nevada",
                since=2020,
                why="big US beauty creator, but makeup-first and a young audience, not skincare-first",
            ),
            near(
                "ig",
                "skincare.uk.freya",
                "Freya Lawson",
                "f",
                "beauty",
                ("skincare", "sensitive skin"),
                UK,
                "English",
                340_000,
                city="Leeds",
                since=2019,
                why="sensitive-skin content that fits, but UK-based with a UK audience; the shop ships to the US only",
            ),
            near(
                "yt",
                "drsamirskin",
                "Samir Patel",
                "m",
                "beauty",
                ("dermatology", "skincare reviews"),
                US,
                "English",
                1_400_000,
                city="Houston, Texas",
                since=2017,
                why="dermatologist with the right audience, but on YouTube; the brief is TikTok and Instagram",
            ),
            near(
                "tt",
                "kaylarhodes",
                "Kayla Rhodes",
                "f",
                "beauty",
                ("skincare", "lifestyle"),
                US,
                "English",
                15_200_000,
                vr=0.28,
                city="Los Angeles, California",
                since=2018,
                why="huge US skincare reach, but one video costs a large share of the budget",
            ),
            near(
                "tt",
                "hauls.with.halle",
                "Halle Monroe",
                "f",
                "beauty",
                ("hauls", "skincare"),
                US,
                "English",
                690_000,
                city="Orlando, Florida",
                since=2021,
                avail="Received a 2025 warning letter from an advertising watchdog over paid posts that were not "
                "labelled as ads.",
                why="US skincare audience, but a record of undisclosed paid posts, which the brief rules out",
            ),
        ],
    ),
    (
        "mk-ecom-hound-and-hearth-uk",
        [
            pick(
                "ig",
                "barnaby.the.beagle",
                "Georgina Pell",
                "f",
                "pets",
                ("dogs", "beagles", "countryside walks"),
                UK,
                "English",
                280_000,
                city="Cheltenham",
                since=2019,
                note="Barnaby's account: countryside walks, honest feeding routines, a weekly 'what's in the bowl'. "
                "Audience UK dog owners, mostly women 25-54.",
            ),
            pick(
                "ig",
                "cockapoo.crew",
                "Rachel Dunmore",
                "f",
                "pets",
                ("cockapoos", "family dog"),
                UK,
                "English",
                190_000,
                city="Nottingham",
                since=2020,
            ),
            pick(
                "tt",
                "spaniel.tom",
                "Tom Ellery",
                "m",
                "pets",
                ("working cocker spaniels", "dog training"),
                UK,
                "English",
                410_000,
                city="Sheffield",
                since=2021,
            ),
            pick(
                "tt",
                "thedogtrainerdanny",
                "Danny Kemp",
                "m",
                "pets",
                ("dog training", "recall"),
                UK,
                "English",
                620_000,
                city="Birmingham",
                since=2020,
            ),
            pick(
                "ig",
                "frenchie.in.london",
                "Priya Chauhan",
                "f",
                "pets",
                ("French bulldogs", "city dog life"),
                UK,
                "English",
                240_000,
                city="London",
                since=2019,
            ),
            pick(
                "tt",
                "muddypawsandwellies",
                "Eleanor Fisk",
                "f",
                "pets",
                ("dog walks", "Lake District"),
                UK,
                "English",
                330_000,
                city="Kendal",
                since=2021,
            ),
            near(
                "ig",
                "rawfedrebel",
                "Gareth Lyle",
                "m",
                "pets",
                ("raw feeding", "dogs"),
                UK,
                "English",
                260_000,
                city="Swansea",
                since=2019,
                why="UK dog owners, but a raw-feeding campaigner who attacks cooked and commercial food",
            ),
            near(
                "tt",
                "maplethegolden",
                "Kristen Doyle",
                "f",
                "pets",
                ("dogs", "golden retrievers"),
                US,
                "English",
                980_000,
                city="Boise, Idaho",
                since=2020,
                why="dog-first account, but US-based; the shop delivers in the UK only",
            ),
            near(
                "yt",
                "thedogvlog_uk",
                "Martin Yeats",
                "m",
                "pets",
                ("dogs", "dog training"),
                UK,
                "English",
                540_000,
                city="Norwich",
                since=2017,
                why="UK dog channel with the right audience, but on YouTube; the brief is Instagram and TikTok",
            ),
            near(
                "ig",
                "oscarthepugofficial",
                "Bella Grant",
                "f",
                "pets",
                ("pugs", "funny pet clips"),
                UK,
                "English",
                9_400_000,
                vr=0.22,
                city="London",
                since=2016,
                why="famous UK dog account, but one Reel costs more than the whole budget",
            ),
        ],
    ),
    (
        "mk-ecom-casa-almendra-spain",
        [
            pick(
                "ig",
                "casadelola.deco",
                "Lola Martín",
                "f",
                "home & DIY",
                ("home decor", "Mediterranean style"),
                ES,
                "Spanish",
                340_000,
                city="Valencia",
                since=2018,
                note="Whitewashed walls, linen and terracotta: Lola styles her rented flat in Valencia and links every "
                "piece. Works on affiliate codes and reports sales back to brands.",
                collabs=[("Casa Lumen", "home brand"), ("Nookcraft", "home brand")],
            ),
            pick(
                "ig",
                "pisito.bonito",
                "Marta Gil",
                "f",
                "home & DIY",
                ("small apartments", "renter-friendly upgrades"),
                ES,
                "Spanish",
                210_000,
                city="Madrid",
                since=2019,
            ),
            pick(
                "tt",
                "reformasconirene",
                "Irene Campos",
                "f",
                "home & DIY",
                ("DIY makeovers", "upcycling"),
                ES,
                "Spanish",
                480_000,
                city="Sevilla",
                since=2020,
            ),
            pick(
                "ig",
                "nidoblanco.home",
                "Carmen Vidal",
                "f",
                "home & DIY",
                ("minimalist home", "textiles"),
                ES,
                "Spanish",
                160_000,
                city="Málaga",
                since=2020,
            ),
            pick(
                "tt",
                "decoconpablo",
                "Pablo Herrero",
                "m",
                "home & DIY",
                ("interior design tips", "before and after"),
                ES,
                "Spanish",
                390_000,
                city="Barcelona",
                since=2021,
                female=70,
            ),
            near(
                "ig",
                "casa.mexicana.deco",
                "Valeria Pineda",
                "f",
                "home & DIY",
                ("home decor", "Mexican style"),
                MX,
                "Spanish",
                420_000,
                city="Guadalajara",
                since=2019,
                why="Spanish-language decor creator, but based in Mexico; the shop ships within Spain only",
            ),
            near(
                "yt",
                "bricomania_jordi",
                "Jordi Puig",
                "m",
                "home & DIY",
                ("renovation", "tool tutorials"),
                ES,
                "Spanish",
                610_000,
                city="Girona",
                since=2016,
                why="Spanish home channel, but on YouTube (the brief is Instagram and TikTok) and tool-focused",
            ),
            near(
                "ig",
                "elena.soler.home",
                "Elena Soler",
                "f",
                "home & DIY",
                ("luxury interiors", "home decor"),
                ES,
                "Spanish",
                2_900_000,
                vr=0.25,
                city="Marbella",
                since=2015,
                why="Spanish decor audience, but luxury interiors and far over the budget",
            ),
        ],
    ),
    (
        "mk-ecom-northcairn-outfitters-ca",
        [
            pick(
                "yt",
                "paddlenorthcal",
                "Cal Henderson",
                "m",
                "outdoor",
                ("canoe tripping", "camping", "Algonquin"),
                CA,
                "English",
                410_000,
                top={"Canada": 56, "United States": 28, "United Kingdom": 4},
                city="Huntsville, Ontario",
                since=2016,
                note="Multi-day canoe trips in Algonquin and Temagami with detailed gear lists at the end of every film; "
                "links each item in the description. Audience mostly Canadian men and women 25-54.",
                collabs=[
                    ("Cairnward", "outdoor brand"),
                    ("Summitree", "outdoor brand"),
                    ("Trailwren", "outdoor brand"),
                ],
                titles=[
                    "7 days in Algonquin: full gear list",
                    "Portaging 4 km with a 60-pound pack",
                    "Canoe camping meals for a week",
                    "Budget tent test after 40 nights",
                ],
            ),
            pick(
                "yt",
                "wintercampwren",
                "Wren Halvorsen",
                "f",
                "outdoor",
                ("winter camping", "hot tents"),
                CA,
                "English",
                260_000,
                city="Thunder Bay, Ontario",
                since=2018,
            ),
            pick(
                "yt",
                "macleodgearlab",
                "Owen MacLeod",
                "m",
                "outdoor",
                ("gear reviews", "backpacking"),
                CA,
                "English",
                520_000,
                city="Calgary, Alberta",
                since=2016,
                note="Long-term gear reviews with failure tests; viewers trust him because he returns bad gear on "
                "camera.",
            ),
            pick(
                "yt",
                "pleinairavecmaude",
                "Maude Bélanger",
                "f",
                "outdoor",
                ("camping", "Québec parks", "hiking"),
                CA,
                "French",
                180_000,
                city="Québec City",
                since=2019,
            ),
            pick(
                "ig",
                "northlightscamp",
                "Sasha Kowalchuk",
                "f",
                "outdoor",
                ("camping photography", "Yukon", "winter camping"),
                CA,
                "English",
                230_000,
                city="Whitehorse, Yukon",
                since=2018,
            ),
            pick(
                "ig",
                "trailmix.tess",
                "Tess Arbour",
                "f",
                "outdoor",
                ("hiking", "BC trails"),
                CA,
                "English",
                150_000,
                city="Squamish, British Columbia",
                since=2020,
            ),
            pick(
                "ig",
                "bushcraft.brandon",
                "Brandon Lacroix",
                "m",
                "outdoor",
                ("bushcraft", "fishing"),
                CA,
                "English",
                310_000,
                city="Sudbury, Ontario",
                since=2018,
            ),
            pick(
                "yt",
                "boundarywatersjess",
                "Jess Carlson",
                "f",
                "outdoor",
                ("boundary waters", "canoe tripping"),
                US,
                "English",
                290_000,
                city="Duluth, Minnesota",
                since=2017,
            ),
            near(
                "yt",
                "ultralightmitch",
                "Mitch Barlow",
                "m",
                "outdoor",
                ("ultralight", "backpacking"),
                AU,
                "English",
                480_000,
                city="Hobart",
                since=2017,
                why="gear-review channel, but Australian with an Australian audience; the shop ships in North America",
            ),
            near(
                "tt",
                "campingtok.ryan",
                "Ryan Pelletier",
                "m",
                "outdoor",
                ("camping", "hacks"),
                CA,
                "English",
                870_000,
                city="Ottawa, Ontario",
                since=2021,
                why="Canadian camping creator, but TikTok-only; the brief is YouTube and Instagram",
            ),
            near(
                "yt",
                "wildernessmaxx",
                "Max Brennan",
                "m",
                "outdoor",
                ("survival", "bushcraft"),
                US,
                "English",
                6_200_000,
                vr=0.18,
                city="Knoxville, Tennessee",
                since=2014,
                why="huge outdoor audience, but US South-based and far over budget",
            ),
            near(
                "ig",
                "glampinggirl.ca",
                "Kiara Singh",
                "f",
                "travel",
                ("glamping", "luxury cabins"),
                CA,
                "English",
                340_000,
                age=(6, 52, 30, 8, 4),
                city="Toronto, Ontario",
                since=2020,
                why="Canadian outdoors-adjacent account, but glamping and cabins for 18-24s; no gear content",
            ),
        ],
    ),
]

# ---------------------------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------------------------
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
TIER_WORDS = {"nano": "nano", "micro": "micro", "mid": "mid-tier", "macro": "macro", "mega": "mega"}


def ascii_slug(text: str) -> str:
    text = text.replace("đ", "d").replace("Đ", "D").replace("ı", "i").replace("ß", "ss")
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if ch.isascii() and ch.isalnum()).lower()


def tier_of(followers: int) -> str:
    for name, low, high in TIERS:
        if low <= followers < high:
            return name
    raise ValueError(followers)


def round_sig(value: float, digits: int = 3) -> int:
    if value <= 0:
        return 0
    magnitude = 10 ** max(0, math.floor(math.log10(value)) - digits + 1)
    return int(round(value / magnitude) * magnitude)


def nice_money(value: float) -> int:
    for limit, step in ((100, 5), (1_000, 10), (10_000, 50), (100_000, 250)):
        if value < limit:
            return max(step, int(round(value / step) * step))
    return int(round(value / 1_000) * 1_000)


def largest_remainder(weights: list[float], total: int = 100) -> list[int]:
    whole = sum(weights)
    raw = [w * total / whole for w in weights]
    floors = [math.floor(x) for x in raw]
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - floors[i]), i))
    for i in order[: total - sum(floors)]:
        floors[i] += 1
    return floors


def weighted_choice(rng: random.Random, items, weights):
    return rng.choices(list(items), weights=list(weights), k=1)[0]


def region_info(region: str, language: str) -> dict:
    info = dict(REGIONS[region])
    info.update(LANGUAGE_VARIANTS.get((region, language), {}))
    return info


def stream(handle: str, purpose: str) -> random.Random:
    return random.Random(f"{SEED}|{handle}|{purpose}")


# ---------------------------------------------------------------------------------------------------------------
# Numbers: everything a creator's `data` holds, derived from the spec (hand-designed or generated).
# ---------------------------------------------------------------------------------------------------------------
def derive(spec: dict) -> dict:
    rng = stream(spec["handle"], "numbers")
    platform, niche, region, language = spec["platform"], spec["niche"], spec["region"], spec["language"]
    followers = int(spec["followers"])
    nich = NICHES[niche]
    tier = tier_of(followers)
    subs = list(spec["subs"])

    lo, hi = VIEW_RATIO_BANDS[platform][tier]
    if "vr" in spec:
        ratio = spec["vr"]
    else:
        t = rng.betavariate(2.2, 2.2)
        ratio = math.exp(math.log(lo * 1.12) + t * (math.log(hi * 0.85) - math.log(lo * 1.12)))
    avg_views = round_sig(followers * ratio, 3)

    band_lo, band_hi = ER_BANDS[platform][tier]
    if "er" in spec:
        er = spec["er"]
    else:
        centre, slope = ER_CENTRE[platform]
        er = (centre - slope * (math.log10(followers) - 4)) * nich["er"] * rng.uniform(0.82, 1.18)
        if tier == "nano":
            er *= 1.12
        er = min(max(er, band_lo + 0.15), band_hi - 0.15)
    er = round(er, 2)

    ppm_lo, ppm_hi = POSTS_PER_MONTH[platform]
    ppm = spec.get("ppm") or rng.randint(ppm_lo, (ppm_lo + ppm_hi) // 2 + rng.randint(0, (ppm_hi - ppm_lo) // 2))

    # Audience age
    if "age" in spec:
        weights = [max(0.0, w * rng.uniform(0.95, 1.05)) for w in spec["age"]]
    else:
        weights = list(nich["age"])
        shift = {"TikTok": (6, 6, -4, -4, -4), "Instagram": (-2, 4, 4, -3, -3), "YouTube": (0, 0, 0, 0, 0)}[platform]
        weights = [w + s for w, s in zip(weights, shift, strict=True)]
        for sub in subs:
            for i, s in enumerate(SUB_AGE.get(sub, (0, 0, 0, 0, 0))):
                weights[i] += s
        weights = [max(1.0, w) * rng.uniform(0.85, 1.18) for w in weights]
    ages = largest_remainder(weights)
    age = dict(zip(AGE_BUCKETS, ages, strict=True))

    # Audience gender
    if "female" in spec:
        female = int(spec["female"])
    else:
        female = nich["female"] + {"Instagram": 5, "TikTok": 2, "YouTube": -4}[platform]
        moves = [SUB_GENDER.get(sub, 0) for sub in subs]
        female += max([0, *moves]) + min([0, *moves]) + {"f": 5, "m": -5}.get(spec["g"], 0)
        female = round(female + rng.gauss(0, 5))
    female = clamp_female(niche, subs, female)
    gender = {"female": female, "male": 100 - female}

    # Audience countries
    info = region_info(region, language)
    if "top" in spec:
        top = dict(spec["top"])
    else:
        home = rng.randint(*info["home"])
        abroad = list(info["abroad"])
        count = min(len(abroad), rng.randint(2, 4))
        chosen = []
        pool_weights = [1.0 / (i + 1) for i in range(len(abroad))]
        while len(chosen) < count:
            country = weighted_choice(rng, abroad, pool_weights)
            idx = abroad.index(country)
            abroad.pop(idx)
            pool_weights.pop(idx)
            chosen.append(country)
        rest = 100 - home
        spread = max(count, round(rest * rng.uniform(0.5, 0.82)))
        shares = largest_remainder(sorted((rng.uniform(0.25, 1.0) for _ in chosen), reverse=True), spread)
        shares = [max(1, min(s, home - 1)) for s in shares]
        top = {region: home}
        for country, share in sorted(zip(chosen, shares, strict=True), key=lambda x: -x[1]):
            top[country] = share

    # Rates
    base = avg_views / 1000 * BASE_CPM[platform] * nich["cpm"] * REGIONS[region]["rate"] * rng.uniform(0.88, 1.15)
    base = max(base, 20.0, 60.0 * REGIONS[region]["rate"])
    rates = {}
    for key, mlo, mhi in RATE_FORMATS[platform]:
        rates[key] = nice_money(base * rng.uniform(mlo, mhi))

    # Recent content
    titles = spec.get("titles")
    n_posts = len(titles) if titles else (3 if spec.get("sparse") else rng.randint(3, 5))
    c_lo, c_hi = COMMENT_SHARE[platform]
    recent = []
    for i in range(n_posts):
        views = int(avg_views * min(2.3, max(0.45, math.exp(rng.gauss(0, 0.35)))))
        views = max(views, 50)
        inter = views * er * rng.uniform(0.8, 1.2) / 100
        comments = max(1, round(inter * rng.uniform(c_lo, c_hi)))
        likes = max(comments + 1, round(inter - comments))
        title = titles[i] if titles else None
        recent.append({"title": title, "views": views, "likes": likes, "comments": comments})

    return {
        "followers": followers,
        "avg_views": avg_views,
        "engagement_rate": er,
        "posts_per_month": ppm,
        "audience": {"age": age, "gender": gender, "top_countries": top},
        "rates_usd": rates,
        "recent": recent,
        "tier": tier,
    }


def clamp_female(niche: str, subs: list[str], female: int) -> int:
    female = min(95, max(5, female))
    if niche in FEMALE_MAJORITY_NICHES:
        female = max(female, 56)
    if niche in MALE_MAJORITY_NICHES:
        friendly = niche == "gaming" and any(s in GAMING_FEMALE_FRIENDLY for s in subs)
        if not friendly:
            female = min(female, 99 - MALE_MAJORITY_NICHES[niche])
    return female


# ---------------------------------------------------------------------------------------------------------------
# Words: titles, collaborations and notes for the page text.
# ---------------------------------------------------------------------------------------------------------------
SUB_ITEMS = {
    "exam prep": (
        "electrostatics",
        "organic chemistry",
        "cell biology",
        "calculus",
        "thermodynamics",
        "genetics",
        "chemical bonding",
        "rotational motion",
    ),
    "grand strategy": ("Iron Dominion", "Crowns of Ash", "Empire at Dusk"),
    "cozy games": ("Meadowlight", "Teacup Harbor", "Bramble Lane"),
    "gacha games": ("Riftbound Legends", "Starhollow Saga", "Crimson Tides"),
}


def fill_title(template: str, rng: random.Random, nich: dict, city: str, subs: list[str] | None = None) -> str:
    items = list(nich.get("items") or ("it",))
    for sub in subs or ():
        if sub in SUB_ITEMS:
            items = list(SUB_ITEMS[sub])
            break
    item = rng.choice(items)
    item2 = rng.choice([x for x in items if x != item] or items)
    text = template.format(
        n=rng.randint(3, 12),
        n2=rng.randint(14, 96),
        k=rng.randint(6, 58),
        city=city.split(",")[0],
        month=rng.choice(MONTHS),
        year=rng.choice((2025, 2026)),
        item=item,
        item2=item2,
        place=rng.choice(nich.get("places") or (city.split(",")[0],)),
        neg=rng.randint(15, 35),
        thing=rng.choice(nich.get("things") or items),
    )
    return text[0].upper() + text[1:]


COLLAB_FORMATS = {
    "YouTube": ("60-second integration", "dedicated video", "integration in two videos", "Shorts series"),
    "TikTok": ("sponsored video", "three-video series", "TikTok Shop affiliate campaign", "video with Spark Ads"),
    "Instagram": ("Reel", "Reel and Stories", "carousel post", "Story takeover", "three-Reel series"),
}
APP_OUTCOMES = (
    "the tracking link brought in roughly {n:,} sign-ups",
    "renewed for a second flight",
    "promo code used about {n:,} times in the first month",
    "the brand reused the clip in paid ads for 60 days",
    "one-off; not renewed",
    "install cost came in under the brand's target, per the creator's manager",
    "ran for six months as an ambassadorship",
)
PRODUCT_OUTCOMES = (
    "discount code redeemed about {n:,} times",
    "the featured bundle sold out in {d} days",
    "renewed for a second flight",
    "the brand reposted the video on its own account",
    "one-off; not renewed",
    "ran as a three-part series",
    "affiliate sales of roughly {n:,} units in the launch month",
)
OTHER_OUTCOMES = (
    "renewed for a second flight",
    "one-off; not renewed",
    "ran as a three-part series",
    "the brand reused the clip in paid ads for 30 days",
    "comments were mostly positive",
)


def is_app_label(label: str) -> bool:
    return any(w in label for w in ("app", "bank", "software", "exchange", "edtech", "carrier", "VPN", "studio"))


def make_collabs(spec: dict, derived: dict, rng: random.Random) -> list[dict]:
    nich = NICHES[spec["niche"]]
    if "collabs" in spec:
        pairs = list(spec["collabs"])
    else:
        tier = derived["tier"]
        n = rng.randint(*{"nano": (0, 2), "micro": (0, 3), "mid": (1, 4), "macro": (2, 5), "mega": (3, 6)}[tier])
        cats = list(nich["brands"])
        pairs, used = [], set()
        for _ in range(n * 3):
            if len(pairs) >= n:
                break
            cat = rng.choice(cats) if rng.random() < 0.8 else rng.choice(("snacks", "mobile", "software", "delivery"))
            label, names = BRANDS[cat]
            name = rng.choice(names)
            if name not in used:
                used.add(name)
                pairs.append((name, label))
    out = []
    for pair in pairs:
        name, label = pair[0], pair[1]
        if len(pair) == 5:  # fully specified: (brand, label, year, format, outcome)
            out.append({"brand": name, "label": label, "year": pair[2], "format": pair[3], "outcome": pair[4]})
            continue
        if is_app_label(label):
            outcome = rng.choice(APP_OUTCOMES)
        elif any(w in label for w in ("brand", "kit", "tea", "scheme")):
            outcome = rng.choice(PRODUCT_OUTCOMES)
        else:
            outcome = rng.choice(OTHER_OUTCOMES)
        scale = max(50, derived["avg_views"] // rng.randint(40, 160))
        outcome = outcome.format(n=round_sig(scale, 2), d=rng.randint(2, 9))
        out.append(
            {
                "brand": name,
                "label": label,
                "year": rng.choice((2024, 2025, 2025, 2026)),
                "format": rng.choice(COLLAB_FORMATS[spec["platform"]]),
                "outcome": outcome,
            }
        )
    return out


AVAIL_POOL = (
    "Books about {w} weeks ahead.",
    "Next open slot: {month} 2026.",
    "Open to long-term ambassadorships of three to six months.",
    "Usage rights and whitelisting are quoted separately (usually +{pct}% per 30 days).",
    "Needs the product at least {w} weeks before filming.",
    "Will not work with gambling, alcohol or vape brands.",
    "Prefers talking points over a script; one round of edits included.",
    "Gives 10-15% off when three or more posts are booked together.",
    "Category exclusivity is available for an extra fee (30 days).",
    "Replies to brand emails within a few days.",
    "Asks for a product trial before agreeing to a campaign.",
    "Does not do giveaways or follow-for-follow campaigns.",
    "Prefers performance deals with a fixed fee plus a bonus per sale or install.",
)
TONES = (
    "talks fast and keeps edits tight",
    "has a calm, unhurried delivery",
    "leans on dry humour",
    "films mostly handheld, with very little B-roll",
    "is known for honest, occasionally blunt opinions",
    "answers a lot of comments in follow-up videos",
    "keeps a warm, big-sibling tone",
    "uses lots of on-screen text and captions",
    "likes long, detailed explanations",
    "mixes in running jokes that regulars recognise",
)


VERB_PLURALS = {
    "talks": "talk",
    "has": "have",
    "leans": "lean",
    "films": "film",
    "is": "are",
    "answers": "answer",
    "keeps": "keep",
    "uses": "use",
    "likes": "like",
    "mixes": "mix",
}


def plural_verb(phrase: str) -> str:
    head, _, rest = phrase.partition(" ")
    return f"{VERB_PLURALS.get(head, head)} {rest}"


def with_article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


def fmt_num(n: int, style: str) -> str:
    if style == "comma" or n < 10_000:
        return f"{n:,}"
    if style == "short":
        if n >= 1_000_000:
            return f"{n / 1_000_000:.1f}M".replace(".0M", "M")
        return f"{n / 1_000:.0f}K" if n >= 100_000 else f"{n / 1_000:.1f}K".replace(".0K", "K")
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} million".replace(".0 million", " million")
    return f"{round(n / 1000):,} thousand"


def fmt_money(n: int, style: str) -> str:
    return {"dollar": f"${n:,}", "usd": f"USD {n:,}", "us": f"US${n:,}"}[style]


RATE_LABELS = {
    "integration_60s": "60-90 second integration",
    "dedicated_video": "dedicated video",
    "shorts": "YouTube Short",
    "sponsored_video": "sponsored video",
    "three_video_bundle": "three-video bundle",
    "spark_ads_30d": "Spark Ads usage (30 days)",
    "reel": "Reel",
    "carousel_post": "carousel post",
    "story_set": "Story set (3 frames)",
    "reel_and_stories": "Reel + Stories package",
}
PLATFORM_WORDS = {
    "YouTube": {"fol": "subscribers", "post": "video", "posts": "videos", "acct": "channel", "view": "views"},
    "TikTok": {"fol": "followers", "post": "video", "posts": "videos", "acct": "account", "view": "views"},
    "Instagram": {"fol": "followers", "post": "Reel", "posts": "Reels and posts", "acct": "account", "view": "plays"},
}


# ---------------------------------------------------------------------------------------------------------------
# Page text. Five layouts (media kit, agency scouting notes, compact card, first person, analytics report), each
# with several phrasings per section, so pages do not read like one template.
# ---------------------------------------------------------------------------------------------------------------
class Writer:
    def __init__(self, c: dict, rng: random.Random):
        self.c = c
        self.r = rng
        self.pw = PLATFORM_WORDS[c["platform"]]
        self.ns = c["num_style"]
        self.ms = c["money_style"]

    # -- small pieces -------------------------------------------------------------------------------------------
    def n(self, value: int) -> str:
        return fmt_num(value, self.ns)

    def money(self, value: int) -> str:
        return fmt_money(value, self.ms)

    def ctx(self) -> dict:
        c = self.c
        duo = c["g"] == "duo"
        pron = {"f": "she", "m": "he", "duo": "they"}[c["g"]]
        return {
            "name": c["name"],
            "first": c["first"],
            "P": pron.capitalize(),
            "p": pron,
            "poss": {"f": "her", "m": "his", "duo": "their"}[c["g"]],
            "Poss": {"f": "Her", "m": "His", "duo": "Their"}[c["g"]],
            "s": "" if duo else "s",
            "es": "" if duo else "es",
            "is": "are" if duo else "is",
            "has": "have" if duo else "has",
            "was": "were" if duo else "was",
            "city": c["city"],
            "region": c["region"],
            "platform": c["platform"],
            "since": c["since"],
            "handle": "@" + c["handle"],
            "lang": c["language"],
            "niche": NICHES[c["niche"]]["label"],
            "a_niche": with_article(NICHES[c["niche"]]["label"]),
            "A_niche": "A" + with_article(NICHES[c["niche"]]["label"])[1:],
            "acct": self.pw["acct"],
            "fol": self.pw["fol"],
            "posts": self.pw["posts"],
            "post": self.pw["post"],
        }

    def f(self, template: str, **extra) -> str:
        return template.format(**{**self.ctx(), **extra})

    def subs_phrase(self) -> str:
        subs = list(self.c["subs"])
        if len(subs) == 1:
            return subs[0]
        return ", ".join(subs[:-1]) + " and " + subs[-1]

    def language_line(self) -> str:
        c, lang = self.c, self.c["language"]
        if c["region"] == "Nigeria" and "Pidgin" not in (c.get("note") or ""):
            options = ("Speaks English on camera, with Pidgin asides.", "Content is in English (Nigerian).")
        elif lang == "English":
            options = ("Content is in English.", "Films in English.", "English-language {acct}.")
        elif c["region"] == "Philippines" and lang == "Filipino":
            options = ("Speaks Taglish (Filipino mixed with English).", "Filipino-language content, often in Taglish.")
        elif c["region"] == "India" and lang == "Hindi":
            options = (
                "Teaches and talks in Hindi, with Hinglish titles.",
                "Hindi-language content (Hinglish on-screen text).",
            )
        else:
            options = (
                "Content is in {lang}.",
                "Films in {lang}; captions are in {lang} too.",
                "{lang}-language {acct}.",
                "Speaks {lang} on camera.",
            )
        return self.f(self.r.choice(options))

    def er_compare(self) -> str:
        lo, hi = ER_BANDS[self.c["platform"]][self.c["tier"]]
        mid = (lo + hi) / 2
        er = self.c["engagement_rate"]
        if er > mid * 1.12:
            return self.r.choice(
                (
                    "above average for a {platform} {acct} of this size",
                    "strong for the follower count",
                    "well above the platform norm at this tier",
                )
            )
        if er < mid * 0.88:
            return self.r.choice(
                (
                    "a little below the platform norm at this tier",
                    "on the low side for the size",
                    "softer than typical for similar accounts",
                )
            )
        return self.r.choice(
            (
                "about typical for the tier",
                "in line with similar {platform} accounts",
                "roughly the platform norm at this size",
            )
        )

    def age_sorted(self) -> list[tuple[str, int]]:
        age = self.c["audience"]["age"]
        return sorted(age.items(), key=lambda kv: (-kv[1], AGE_BUCKETS.index(kv[0])))

    def countries_phrase(self, limit: int = 4) -> str:
        items = list(self.c["audience"]["top_countries"].items())[:limit]
        return ", ".join(f"{k} {v}%" for k, v in items)

    # -- sections -------------------------------------------------------------------------------------------------
    def bio(self) -> str:
        c = self.c
        opts = [
            "{name} {is} {a_city}-based {platform} creator covering {subs}.",
            "Based in {city}, {region}, {name} {has} been posting {niche} content on {platform} since {since}.",
            "{first} started the {acct} in {since} while working as {job}; today {p} post{s} about {subs}.",
            "{name} ({handle}) make{s} {style1} for {flavor}.",
            "{A_niche} creator from {city}, {first} focus{es} on {subs}.",
            "{name} run{s} {handle}, {a_niche} {acct} out of {city}, {region}.",
        ]
        if not c["job"]:
            opts = [o for o in opts if "{job}" not in o]
        text = self.f(
            self.r.choice(opts),
            subs=self.subs_phrase(),
            job=c["job"],
            style1=c["styles"][0],
            flavor=c["flavor"],
            a_city=with_article(c["city"].split(",")[0]),
        )
        if c.get("note") and c["note_in_bio"]:
            text += " " + c["note"]
        return text

    def style_text(self) -> str:
        c = self.c
        opts = [
            "Mostly {s1}, with {s2} mixed in. {P} {tone}.",
            "Typical formats: {s1} and {s2}. {first} {tone}.",
            "Expect {s1}; {s2} do well too. On camera {p} {tone}.",
            "The {acct} is a mix of {s1} and {s2}, posted about {ppm} times a month.",
        ]
        tone = c["tone"] if c["g"] != "duo" else plural_verb(c["tone"])
        return self.f(self.r.choice(opts), s1=c["styles"][0], s2=c["styles"][1], tone=tone, ppm=c["posts_per_month"])

    def stats_bullets(self) -> list[str]:
        c = self.c
        if self.ns == "words":
            self.ns = "short"
        lines = [
            f"- {self.pw['fol'].capitalize()}: {self.n(c['followers'])}",
            f"- Average {self.pw['view']} per {self.pw['post']} (recent): {self.n(c['avg_views'])}",
            f"- Engagement rate: {c['engagement_rate']}%"
            + self.r.choice(("", " (likes + comments / views)", f" - {self.f(self.er_compare())}")),
            f"- Posting cadence: about {c['posts_per_month']} {self.pw['posts']} a month",
        ]
        if self.r.random() < 0.5:
            lines.insert(0, f"- Tier: {TIER_WORDS[c['tier']]}")
        return lines

    def stats_prose(self) -> str:
        c = self.c
        opts = [
            "With {fol_n} {fol} and around {views} {view} per {post}, {first} sit{s} among {tier} creators. Engagement "
            "runs at {er}%, {cmp}.",
            "{fol_n} {fol}. Recent {posts} average {views} {view}, with an engagement rate of {er}% ({cmp}). "
            "{P} post{s} roughly {ppm} times a month.",
            "The {acct} has {fol_n} {fol}; a typical {post} now gets about {views} {view}. Engagement: {er}%, {cmp}.",
            "Reach: {fol_n} {fol}, {views} average {view}. Engagement {er}% ({cmp}), about {ppm} uploads a month.",
        ]
        return self.f(
            self.r.choice(opts),
            fol_n=self.n(c["followers"]),
            views=self.n(c["avg_views"]),
            view=self.pw["view"],
            tier=TIER_WORDS[c["tier"]],
            er=c["engagement_rate"],
            cmp=self.f(self.er_compare()),
            ppm=c["posts_per_month"],
        )

    def content_intro(self) -> str:
        if self.c["language"] != "English" and not self.c.get("titles"):
            return self.r.choice(
                (
                    "Recent {posts} (titles translated from {lang}):",
                    "Latest uploads, titles translated from {lang}:",
                    "Recent {posts} (English translations of the titles):",
                )
            ).format(posts=self.pw["posts"], lang=self.c["language"])
        return self.r.choice(
            ("Recent {posts}:", "Latest uploads:", "How the last few {posts} did:", "Recent performance:")
        ).format(posts=self.pw["posts"])

    def content_bullets(self) -> list[str]:
        out = []
        sep = self.r.choice((" · ", ", ", " | "))
        for post in self.c["recent_content"]:
            out.append(
                f'- "{post["title"]}" - {self.n(post["views"])} {self.pw["view"]}{sep}'
                f"{self.n(post['likes'])} likes{sep}{self.n(post['comments'])} comments"
            )
        return out

    def content_table(self) -> list[str]:
        lines = ["| Title | " + self.pw["view"].capitalize() + " | Likes | Comments |", "|---|---:|---:|---:|"]
        for post in self.c["recent_content"]:
            lines.append(f"| {post['title']} | {post['views']:,} | {post['likes']:,} | {post['comments']:,} |")
        return lines

    def content_prose(self) -> str:
        posts = sorted(self.c["recent_content"], key=lambda p: -p["views"])
        best, worst = posts[0], posts[-1]
        opts = [
            'The best recent {post}, "{bt}", reached {bv} {view}; the weakest, "{wt}", still got {wv}.',
            '"{bt}" is the standout of the last few weeks at {bv} {view} and {bl} likes. "{wt}" was quieter '
            "({wv} {view}).",
            'Recent range: {wv} to {bv} {view} per {post} (top: "{bt}").',
        ]
        return self.f(
            self.r.choice(opts),
            bt=best["title"],
            bv=self.n(best["views"]),
            bl=self.n(best["likes"]),
            wt=worst["title"],
            wv=self.n(worst["views"]),
            view=self.pw["view"],
        )

    def audience_bullets(self) -> list[str]:
        a = self.c["audience"]
        ages = " · ".join(f"{k} {v}%" for k, v in a["age"].items())
        return [
            f"- Age: {ages}",
            f"- Gender: {a['gender']['female']}% female, {a['gender']['male']}% male",
            f"- Top countries: {self.countries_phrase()}",
        ]

    def audience_prose(self) -> str:
        a = self.c["audience"]
        (b1, s1), (b2, s2) = self.age_sorted()[:2]
        fem = a["gender"]["female"]
        sex = f"{fem}% women" if fem >= 50 else f"{100 - fem}% men"
        countries = list(a["top_countries"].items())
        home, hp = countries[0]
        rest = ", ".join(f"{k} ({v}%)" for k, v in countries[1:3])
        opts = [
            "The audience is {sex} and skews {b1} ({s1}%), with {b2} next at {s2}%. {home} accounts for {hp}% of "
            "viewers, followed by {rest}.",
            "Audience: {sex}; largest age group {b1} ({s1}%), then {b2} ({s2}%). {hp}% are in {home}; the rest is "
            "mostly {rest}.",
            "Most viewers are {b1} ({s1}%) or {b2} ({s2}%), {sex}. Geography: {home} {hp}%, then {rest}.",
        ]
        text = self.f(self.r.choice(opts), sex=sex, b1=b1, s1=s1, b2=b2, s2=s2, home=home, hp=hp, rest=rest)
        if self.r.random() < 0.35:
            text += " " + self.f(
                self.r.choice(
                    (
                        "Typical viewer: {flavor}.",
                        "Comments suggest a lot of {flavor}.",
                        "Brands describe the crowd as {flavor}.",
                    )
                ),
                flavor=self.c["flavor"],
            )
        return text

    def audience_table(self) -> list[str]:
        a = self.c["audience"]
        lines = ["| Age group | Share |", "|---|---:|"]
        lines += [f"| {k} | {v}% |" for k, v in a["age"].items()]
        lines += [
            "",
            f"Gender: female {a['gender']['female']}%, male {a['gender']['male']}%.",
            "",
            "| Country | Share |",
            "|---|---:|",
        ]
        lines += [f"| {k} | {v}% |" for k, v in a["top_countries"].items()]
        return lines

    def collabs_bullets(self) -> list[str]:
        if not self.c["collab_details"]:
            return [
                self.r.choice(
                    (
                        "No paid partnerships so far.",
                        "No brand deals disclosed yet.",
                        "Has not run sponsored content yet.",
                    )
                )
            ]
        return [
            f"- **{d['brand']}** ({d['label']}, {d['format']}, {d['year']}): {d['outcome']}."
            for d in self.c["collab_details"]
        ]

    def collabs_prose(self) -> str:
        ds = self.c["collab_details"]
        if not ds:
            return self.r.choice(("No brand partnerships on record.", "{first} has not done paid work yet.")).format(
                first=self.c["first"]
            )
        names = [d["brand"] for d in ds]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        text = self.r.choice(("Past partners include {l}.", "Brand history: {l}.", "{first} has worked with {l}."))
        text = text.format(l=listed, first=self.c["first"])
        for d in ds[:2]:
            text += " " + self.r.choice(
                (
                    "The {brand} {label} campaign ({format}, {year}): {outcome}.",
                    "With {brand} ({year}, {format}) - {outcome}.",
                    "{brand}, {a_label}, booked {a_format} in {year}; {outcome}.",
                )
            ).format(**d, a_label=with_article(d["label"]), a_format=with_article(d["format"]))
        return text

    def rates_bullets(self) -> list[str]:
        return [
            f"- {RATE_LABELS[k][0].upper()}{RATE_LABELS[k][1:]}: {self.money(v)}"
            for k, v in self.c["rates_usd"].items()
        ]

    def rates_prose(self) -> str:
        items = list(self.c["rates_usd"].items())
        parts = [f"{RATE_LABELS[k]} {self.money(v)}" for k, v in items]
        return self.r.choice(("Rate card (USD): {p}.", "Typical rates: {p}.", "Quoted rates for 2026: {p}.")).format(
            p="; ".join(parts)
        )

    def avail_lines(self) -> list[str]:
        return list(self.c["avail_notes"])

    # -- layouts ----------------------------------------------------------------------------------------------------
    def layout_kit(self) -> str:
        c = self.c
        out = [
            f"# {c['name']}" if self.r.random() < 0.5 else f"## {c['name']} - media kit",
            "",
            self.bio() + " " + self.language_line(),
        ]
        blocks = []
        blocks.append(
            (
                self.r.choice(("## Content", f"## What the {self.pw['acct']} is about", "## Content style")),
                [self.style_text()],
            )
        )
        blocks.append(
            (
                self.r.choice(("## Numbers", "## Channel stats", "## Performance")),
                self.stats_bullets() if self.r.random() < 0.6 else [self.stats_prose()],
            )
        )
        blocks.append(
            (
                self.r.choice(("## Audience", "## Who watches", "## Audience demographics")),
                self.audience_bullets() if self.r.random() < 0.5 else [self.audience_prose()],
            )
        )
        self.r.shuffle(blocks)
        for head, body in blocks:
            out += ["", head, "", *body]
        out += [
            "",
            self.r.choice(("## Recent content", "## Latest posts", "## Recent videos")),
            "",
            self.content_intro(),
            *self.content_bullets(),
        ]
        if c.get("note") and not c["note_in_bio"]:
            out += [
                "",
                self.r.choice(("## Notes", "## Good to know", "## Why brands book " + c["first"])),
                "",
                c["note"],
            ]
        out += [
            "",
            self.r.choice(("## Partnerships", "## Brand collaborations", "## Past partners")),
            "",
            *self.collabs_bullets(),
        ]
        out += [
            "",
            self.r.choice(("## Rates", "## Rates and availability", "## Commercials")),
            "",
            *self.rates_bullets(),
            "",
            *self.avail_lines(),
        ]
        return "\n".join(out)

    def layout_scout(self) -> str:
        c = self.c
        head = f"**{c['name']}** · {c['platform']} {'@' + c['handle']} · {c['city']}, {c['region']} · {c['language']}"
        paras = [
            head,
            "",
            self.r.choice(("Scouting notes", "Talent profile", "Creator summary")) + ":",
            "",
            self.bio(),
            "",
            self.style_text() + " " + self.language_line(),
            "",
            self.stats_prose(),
        ]
        if c.get("note") and not c["note_in_bio"]:
            paras += ["", c["note"]]
        paras += [
            "",
            self.audience_prose(),
            "",
            self.content_prose(),
            "",
            self.collabs_prose(),
            "",
            self.rates_prose() + " " + " ".join(self.avail_lines()),
        ]
        return "\n".join(paras)

    def layout_card(self) -> str:
        c = self.c
        lines = [
            self.bio(),
            "",
            f"- Platform: {c['platform']} ({'@' + c['handle']})",
            f"- Location: {c['city']}, {c['region']}",
            f"- Language: {c['language']}",
            f"- Niche: {NICHES[c['niche']]['label']} ({', '.join(c['subs'])})",
            *self.stats_bullets(),
        ]
        a = c["audience"]
        top_age = self.age_sorted()[0]
        lines.append(
            f"- Audience: mostly {top_age[0]} ({top_age[1]}%), {a['gender']['female']}% female; "
            f"{self.countries_phrase(3)}"
        )
        if c["sparse"]:
            first = c["recent_content"][0]
            lines += [
                "",
                f'Latest: "{first["title"]}" ({self.n(first["views"])} {self.pw["view"]}).',
                "",
                self.r.choice(
                    (
                        "Rates on request.",
                        "No public rate card; contact via DM.",
                        "Rate card available on request through the management email.",
                        "Rates: ask.",
                    )
                ),
            ]
            if c["collab_details"]:
                lines.append("Previous partners: " + ", ".join(d["brand"] for d in c["collab_details"]) + ".")
            return "\n".join(lines)
        lines += ["", self.content_intro(), *self.content_bullets()]
        if c.get("note") and not c["note_in_bio"]:
            lines += ["", c["note"]]
        lines += [
            "",
            "Partnerships:",
            *self.collabs_bullets(),
            "",
            "Rates:",
            *self.rates_bullets(),
            *(["", " ".join(self.avail_lines())] if self.avail_lines() else []),
        ]
        return "\n".join(lines)

    def layout_first_person(self) -> str:
        c = self.c
        x = self.ctx()
        greet = self.r.choice(("Hi, I'm {first}!", "Hey - {first} here.", "Hello! I'm {name}.")).format(**x)
        abouts = [
            "I make {s1} about {subs} from {city}. I started in {since} when I was working as {job}.",
            "I've been making {niche} content since {since}: mostly {s1}, plus {s2}.",
            "My {acct} is about {subs}. I film from home in {city}.",
        ]
        if not c["job"]:
            abouts = abouts[1:]
        about = self.r.choice(abouts).format(
            **x, s1=c["styles"][0], s2=c["styles"][1], subs=self.subs_phrase(), job=c["job"]
        )
        if c["g"] == "duo":
            greet = self.r.choice(("Hi, we're {name}!", "Hello from {name}.")).format(**x)
            about = (
                about.replace("I'm", "we're")
                .replace("I've", "we've")
                .replace("I make", "we make")
                .replace("I started", "we started")
                .replace("when I was", "when one of us was")
                .replace("My ", "Our ")
                .replace("I film", "we film")
            )
        out = [greet + " " + about, ""]
        lang = self.language_line()
        out.append(lang)
        if c.get("note"):
            out += ["", "About the " + self.pw["acct"] + ": " + c["note"]]
        out += [
            "",
            self.r.choice(("## My numbers", "## Stats", "## Reach")),
            "",
            *self.stats_bullets(),
            "",
            self.r.choice(("## My audience", "## Who follows along")),
            "",
            self.audience_prose(),
            "",
            self.r.choice(("## Recent work", "## Recent " + self.pw["posts"])),
            "",
            self.content_intro(),
            *self.content_bullets(),
            "",
            self.r.choice(("## Brands I've worked with", "## Past collaborations")),
            "",
            *self.collabs_bullets(),
            "",
            self.r.choice(("## Work with me", "## Rates")),
            "",
            *self.rates_bullets(),
        ]
        if self.avail_lines():
            out += ["", " ".join(self.avail_lines())]
        return "\n".join(out)

    def layout_report(self) -> str:
        c = self.c
        out = [
            self.r.choice(("## Profile", "## Overview")),
            "",
            self.bio(),
            "",
            self.language_line() + " " + self.style_text(),
            "",
            self.r.choice(("## Performance snapshot", "## Key metrics")),
            "",
            "| Metric | Value |",
            "|---|---:|",
            f"| {self.pw['fol'].capitalize()} | {c['followers']:,} |",
            f"| Avg {self.pw['view']} (recent) | {c['avg_views']:,} |",
            f"| Engagement rate | {c['engagement_rate']}% |",
            f"| {self.pw['posts'].capitalize()} per month | {c['posts_per_month']} |",
            "",
            self.r.choice(("## Recent content", "## Last posts")),
            "",
            *self.content_table(),
            "",
            self.r.choice(("## Audience breakdown", "## Audience")),
            "",
            *self.audience_table(),
        ]
        if c.get("note") and not c["note_in_bio"]:
            out += ["", "## Analyst note", "", c["note"]]
        out += [
            "",
            self.r.choice(("## Brand history", "## Collaborations")),
            "",
            *self.collabs_bullets(),
            "",
            self.r.choice(("## Commercials", "## Pricing")),
            "",
            self.rates_prose(),
        ]
        if self.avail_lines():
            out += ["", *(f"- {line}" for line in self.avail_lines())]
        return "\n".join(out)

    def render(self) -> str:
        layout = {
            "kit": self.layout_kit,
            "scout": self.layout_scout,
            "card": self.layout_card,
            "first_person": self.layout_first_person,
            "report": self.layout_report,
        }[self.c["layout"]]
        text = layout()
        if self.c["name"] not in text:
            head = self.r.choice(
                ("# {name}", "**{name}** ({platform}, {handle})", "{name} - {platform} profile", "## {name}")
            )
            text = self.f(head) + "\n\n" + text
        text = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
        return text


# ---------------------------------------------------------------------------------------------------------------
# Building creators
# ---------------------------------------------------------------------------------------------------------------
LAYOUT_WEIGHTS = {
    "YouTube": {"kit": 30, "scout": 25, "card": 15, "first_person": 15, "report": 15},
    "TikTok": {"kit": 20, "scout": 20, "card": 25, "first_person": 25, "report": 10},
    "Instagram": {"kit": 25, "scout": 15, "card": 25, "first_person": 25, "report": 10},
}


def profile_url(platform: str, handle: str) -> str:
    return {
        "YouTube": f"https://www.youtube.com/@{handle}",
        "TikTok": f"https://www.tiktok.com/@{handle}",
        "Instagram": f"https://www.instagram.com/{handle}/",
    }[platform]


def first_name(spec: dict) -> str:
    if spec.get("given"):
        return spec["given"]
    name = spec["name"]
    if spec["g"] == "duo":
        left, _, right = name.partition(" & ")
        return f"{left} and {right.split()[0]}"
    if REGIONS[spec["region"]].get("family_first"):
        parts = name.split()
        return " ".join(parts[1:]) if spec["region"] == "South Korea" else parts[-1]
    return name.split()[0]


def build(spec: dict) -> dict:
    d = derive(spec)
    rng = stream(spec["handle"], "text")
    nich = NICHES[spec["niche"]]
    info = region_info(spec["region"], spec["language"])
    city = spec.get("city") or rng.choice(info["cities"])
    since = spec.get("since") or rng.randint(
        *{
            "nano": (2022, 2025),
            "micro": (2019, 2024),
            "mid": (2017, 2023),
            "macro": (2015, 2021),
            "mega": (2012, 2019),
        }[d["tier"]]
    )
    styles = rng.sample(list(nich["styles"]), 2)
    job = rng.choice(nich["jobs"])
    if spec["role"] != "gen":
        job = spec.get("job")
    titles = []
    templates = list(nich["titles"])
    rng.shuffle(templates)
    for post, template in zip(d["recent"], templates * 2, strict=False):
        title = post["title"] or fill_title(template, rng, nich, city, list(spec["subs"]))
        if spec["platform"] == "TikTok" and not post["title"] and rng.random() < 0.25:
            title = title[0].lower() + title[1:] + rng.choice((" (pt. 2)", " #fyp", "", " 😅"))
        titles.append(title)
    recent = [
        {"title": t, "views": p["views"], "likes": p["likes"], "comments": p["comments"]}
        for t, p in zip(titles, d["recent"], strict=True)
    ]
    collab_details = make_collabs(spec, d, rng)

    avail = []
    if spec.get("avail"):
        avail.append(spec["avail"])
    for line in rng.sample(list(AVAIL_POOL), rng.randint(0 if spec["role"] == "gen" else 1, 2)):
        avail.append(line.format(w=rng.randint(2, 6), month=rng.choice(MONTHS[5:]), pct=rng.choice((20, 25, 30))))
    agency = spec.get("agency", "auto")
    if agency == "auto":
        agency = (
            rng.choice(AGENCIES[spec["region"]])
            if d["tier"] in ("mid", "macro", "mega") and rng.random() < 0.6
            else None
        )
    if agency:
        avail.append(rng.choice(("Managed by {a}.", "Bookings through {a}.", "Represented by {a}.")).format(a=agency))

    sparse = bool(spec.get("sparse", False))
    layout = spec.get("style") or (
        "card"
        if sparse
        else weighted_choice(rng, LAYOUT_WEIGHTS[spec["platform"]].keys(), LAYOUT_WEIGHTS[spec["platform"]].values())
    )

    data = {
        "name": spec["name"],
        "handle": spec["handle"],
        "platform": spec["platform"],
        "niche": spec["niche"],
        "sub_niches": list(spec["subs"]),
        "region": spec["region"],
        "language": spec["language"],
        "followers": d["followers"],
        "avg_views": d["avg_views"],
        "engagement_rate": d["engagement_rate"],
        "posts_per_month": d["posts_per_month"],
        "audience": d["audience"],
        "rates_usd": d["rates_usd"],
        "collaborations": [x["brand"] for x in collab_details],
        "recent_content": recent,
    }
    creator = {
        **data,
        "subs": list(spec["subs"]),
        "g": spec["g"],
        "tier": d["tier"],
        "city": city,
        "since": since,
        "first": first_name(spec),
        "job": job,
        "styles": styles,
        "flavor": rng.choice(nich["flavor"]),
        "tone": rng.choice(TONES),
        "collab_details": collab_details,
        "avail_notes": avail,
        "layout": layout,
        "sparse": sparse,
        "note": spec.get("note"),
        "note_in_bio": rng.random() < 0.3,
        "titles": spec.get("titles"),
        "num_style": rng.choice(("comma", "comma", "short", "words")),
        "money_style": rng.choice(("dollar", "usd", "us")),
    }
    suffix = "creators" if spec["g"] == "duo" else "creator"
    creator["url"] = profile_url(spec["platform"], spec["handle"])
    creator["title"] = f"{spec['name']} (@{spec['handle']}) - {spec['platform']} {nich['label']} {suffix}"
    creator["data"] = data
    creator["text"] = Writer(creator, rng).render()
    creator["role"] = spec["role"]
    return creator


# ---------------------------------------------------------------------------------------------------------------
# Generated creators
# ---------------------------------------------------------------------------------------------------------------
REGION_WEIGHTS = {
    "United States": 18,
    "United Kingdom": 7,
    "Canada": 5,
    "India": 10,
    "Indonesia": 6,
    "Philippines": 6,
    "Brazil": 7,
    "Mexico": 5,
    "Germany": 4,
    "France": 4,
    "Japan": 4,
    "South Korea": 4,
    "Australia": 4,
    "Nigeria": 4,
    "Spain": 3,
    "Vietnam": 3,
    "Thailand": 3,
    "Turkey": 3,
}
NICHE_WEIGHTS = {
    "personal finance": 0.8,
    "fitness": 1.2,
    "beauty": 1.3,
    "gaming": 1.2,
    "tech reviews": 1.6,
    "food": 1.2,
    "travel": 1.0,
    "parenting": 0.9,
    "education": 0.9,
    "productivity": 0.9,
    "fashion": 1.5,
    "home & DIY": 1.1,
    "pets": 0.9,
    "outdoor": 0.7,
    "music": 1.0,
    "comedy": 1.2,
    "language learning": 1.0,
    "crypto": 0.8,
    "health": 0.8,
}
FOLLOWER_TIERS = (
    ((5_000, 10_000), 8),
    ((10_000, 100_000), 38),
    ((100_000, 500_000), 32),
    ((500_000, 2_000_000), 16),
    ((2_000_000, 9_000_000), 6),
)
COUNTRY_CODES = {
    "United States": "us",
    "United Kingdom": "uk",
    "Canada": "ca",
    "India": "in",
    "Indonesia": "id",
    "Philippines": "ph",
    "Brazil": "br",
    "Mexico": "mx",
    "Germany": "de",
    "France": "fr",
    "Japan": "jp",
    "South Korea": "kr",
    "Australia": "au",
    "Nigeria": "ng",
    "Spain": "es",
    "Vietnam": "vn",
    "Thailand": "th",
    "Turkey": "tr",
}
MOBILE_FIRST = ("India", "Indonesia", "Philippines", "Brazil", "Vietnam", "Thailand", "Nigeria", "Mexico", "Turkey")


def pick_subs(rng: random.Random, niche: str, region: str, language: str) -> list[str]:
    if niche == "gaming":
        first = weighted_choice(
            rng, ("mobile gaming", "PC gaming", "console gaming"), (6, 2, 1) if region in MOBILE_FIRST else (2, 4, 3)
        )
        genres = [
            "RPGs",
            "gacha games",
            "MOBA",
            "shooters",
            "strategy games",
            "indie games",
            "speedruns",
            "live streams",
            "cozy games",
        ]
        return [first, *rng.sample(genres[:-1] if rng.random() < 0.9 else genres, rng.randint(1, 2))]
    if niche == "language learning":
        pool = (
            ["Spanish lessons", "Korean lessons", "Japanese lessons", "grammar", "vocabulary"]
            if language == "English"
            else ["English lessons", "pronunciation", "grammar", "vocabulary", "exam prep", "slang"]
        )
        return ([pool[0]] if language != "English" else []) + rng.sample(pool[1:], 2)
    return rng.sample(list(NICHES[niche]["subs"]), rng.randint(2, 3))


def make_handle(rng: random.Random, first: str, last: str, niche: str, region: str, platform: str) -> str:
    f, l_ = ascii_slug(first), ascii_slug(last)
    word = rng.choice(NICHES[niche]["words"])
    sep = "." if platform != "YouTube" and rng.random() < 0.5 else "_"
    patterns = [
        f"{f}{word}",
        f"{word}with{f}",
        f"{f}{sep}{l_}",
        f"the{f}{word}",
        f"{f}{sep}{word}",
        f"{word}{f}",
        f"{word}by{f}",
        f"{f}{word}{COUNTRY_CODES[region]}",
        f"{f}{l_}",
        f"{word}{sep}{f}{l_[:1]}",
    ]
    handle = rng.choice(patterns)
    return handle[:24].strip("._")


def generate_specs(hand_specs: list[dict]) -> list[dict]:
    rng = random.Random(f"{SEED}|pool")
    used_handles = {s["handle"] for s in hand_specs}
    used_names = {s["name"] for s in hand_specs}
    specs = []
    for platform, target in PLATFORM_TARGETS.items():
        need = target - sum(1 for s in hand_specs if s["platform"] == platform)
        affinity = {"YouTube": 0, "TikTok": 1, "Instagram": 2}[platform]
        while need > 0:
            region = weighted_choice(rng, REGION_WEIGHTS.keys(), REGION_WEIGHTS.values())
            langs = REGIONS[region]["languages"]
            language = weighted_choice(rng, [x[0] for x in langs], [x[1] for x in langs])
            niche = weighted_choice(
                rng, NICHE_WEIGHTS.keys(), [w * NICHES[k]["plat"][affinity] for k, w in NICHE_WEIGHTS.items()]
            )
            info = region_info(region, language)
            g = "f" if rng.random() < NICHES[niche]["creator_f"] else "m"
            given, family = rng.choice(info[g]), rng.choice(info["last"])
            name = f"{family} {given}" if REGIONS[region].get("family_first") else f"{given} {family}"
            if name in used_names or name in NAME_BLOCKLIST:
                continue
            handle = make_handle(rng, given, family, niche, region, platform)
            if handle in used_handles or len(handle) < 5:
                continue
            (low, high), _ = weighted_choice(rng, FOLLOWER_TIERS, [w for _, w in FOLLOWER_TIERS])
            followers = int(math.exp(rng.uniform(math.log(low), math.log(high - 1))))
            subs = pick_subs(rng, niche, region, language)
            specs.append(
                {
                    "role": "gen",
                    "platform": platform,
                    "handle": handle,
                    "name": name,
                    "g": g,
                    "given": given,
                    "niche": niche,
                    "subs": tuple(subs),
                    "region": region,
                    "language": language,
                    "followers": followers,
                    "sparse": rng.random() < 0.2,
                }
            )
            used_handles.add(handle)
            used_names.add(name)
            need -= 1
    return specs


def hand_specs() -> list[dict]:
    seen: dict[str, dict] = {}
    for _brief, entries in HAND_GROUPS:
        for entry in entries:
            if entry["handle"] in seen:
                raise SystemExit(f"hand-designed handle used twice: {entry['handle']}")
            seen[entry["handle"]] = entry
    return list(seen.values())


# ---------------------------------------------------------------------------------------------------------------
# Consistency rules (documented in fixtures/worlds/creator-pool/README.md); every creator must pass them.
# ---------------------------------------------------------------------------------------------------------------
DATA_KEYS = (
    "name",
    "handle",
    "platform",
    "niche",
    "sub_niches",
    "region",
    "language",
    "followers",
    "avg_views",
    "engagement_rate",
    "posts_per_month",
    "audience",
    "rates_usd",
    "collaborations",
    "recent_content",
)
HANDLE_RE = re.compile(r"^[a-z0-9][a-z0-9._]{2,28}[a-z0-9]$")


def check(data: dict) -> list[str]:
    problems = []
    if tuple(data) != DATA_KEYS:
        problems.append(f"data keys {list(data)}")
    platform, region, tier = data["platform"], data["region"], tier_of(data["followers"])
    if not HANDLE_RE.match(data["handle"]):
        problems.append("handle has odd characters")
    if data["niche"] not in NICHES:
        problems.append(f"unknown niche {data['niche']}")
    if data["language"] not in [x[0] for x in REGIONS[region]["languages"]]:
        problems.append(f"language {data['language']} not spoken in {region}")
    lo, hi = ER_BANDS[platform][tier]
    if not lo <= data["engagement_rate"] <= hi:
        problems.append(f"engagement {data['engagement_rate']} outside {platform} {tier} band {lo}-{hi}")
    lo, hi = VIEW_RATIO_BANDS[platform][tier]
    ratio = data["avg_views"] / data["followers"]
    if not lo <= ratio <= hi:
        problems.append(f"avg_views/followers {ratio:.3f} outside {platform} {tier} band {lo}-{hi}")
    plo, phi = POSTS_PER_MONTH[platform]
    if not plo <= data["posts_per_month"] <= phi:
        problems.append("posts_per_month out of range")
    posts = data["recent_content"]
    if not 3 <= len(posts) <= 5:
        problems.append("recent_content needs 3-5 posts")
    rates_per_view = []
    for post in posts:
        if not 0.3 * data["avg_views"] <= post["views"] <= 3.5 * data["avg_views"]:
            problems.append(f"post views {post['views']} far from avg_views")
        if not post["comments"] < post["likes"] < post["views"]:
            problems.append("post needs comments < likes < views")
        rates_per_view.append((post["likes"] + post["comments"]) / post["views"] * 100)
    if posts:
        mean = sum(rates_per_view) / len(rates_per_view)
        if abs(mean - data["engagement_rate"]) > 0.35 * data["engagement_rate"]:
            problems.append(f"recent posts engage at {mean:.2f}%, far from engagement_rate")
    audience = data["audience"]
    if tuple(audience["age"]) != AGE_BUCKETS or sum(audience["age"].values()) != 100:
        problems.append("age buckets must be the five buckets summing to 100")
    gender = audience["gender"]
    if tuple(gender) != ("female", "male") or gender["female"] + gender["male"] != 100:
        problems.append("gender must be female/male summing to 100")
    if clamp_female(data["niche"], data["sub_niches"], gender["female"]) != gender["female"]:
        problems.append(f"gender split {gender} implausible for {data['niche']}")
    top = list(audience["top_countries"].items())
    if not top or top[0][0] != region:
        problems.append("top country must be the creator's region")
    if [v for _, v in top] != sorted((v for _, v in top), reverse=True) or sum(v for _, v in top) > 100:
        problems.append("top_countries must be descending and sum to at most 100")
    home_lo, home_hi = region_info(region, data["language"])["home"]
    if top and not home_lo <= top[0][1] <= home_hi:
        problems.append(f"home-country share {top[0][1]} outside {home_lo}-{home_hi} for {region}/{data['language']}")
    rates = data["rates_usd"]
    if list(rates) != [f[0] for f in RATE_FORMATS[platform]]:
        problems.append(f"rate formats {list(rates)} wrong for {platform}")
    else:
        main = rates[RATE_FORMATS[platform][0][0]]
        cpm = main / data["avg_views"] * 1000
        if not 3 <= cpm <= 100:
            problems.append(f"main rate {main} gives CPM {cpm:.1f}, outside 3-100")
        for key, mlo, mhi in RATE_FORMATS[platform][1:]:
            if not mlo * 0.9 * main - 5 <= rates[key] <= mhi * 1.1 * main + 5:
                problems.append(f"rate {key} out of proportion to the main format")
    return problems


# ---------------------------------------------------------------------------------------------------------------
# Writing pages
# ---------------------------------------------------------------------------------------------------------------
def y_scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if "e" in text or "inf" in text or "nan" in text:
            raise ValueError(value)
        return text
    return json.dumps(value, ensure_ascii=False)


def y_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else json.dumps(key, ensure_ascii=False)


def y_map(mapping: dict, indent: int) -> list[str]:
    pad = " " * indent
    lines = []
    for key, value in mapping.items():
        k = y_key(key)
        if isinstance(value, dict):
            lines += [f"{pad}{k}:", *y_map(value, indent + 2)] if value else [f"{pad}{k}: {{}}"]
        elif isinstance(value, list):
            if not value:
                lines.append(f"{pad}{k}: []")
            elif all(not isinstance(x, dict | list) for x in value):
                lines.append(f"{pad}{k}: [{', '.join(y_scalar(x) for x in value)}]")
            else:
                lines.append(f"{pad}{k}:")
                for item in value:
                    inner = ", ".join(f"{y_key(ik)}: {y_scalar(iv)}" for ik, iv in item.items())
                    lines.append(f"{pad}  - {{{inner}}}")
        else:
            lines.append(f"{pad}{k}: {y_scalar(value)}")
    return lines


def page(creator: dict) -> str:
    head = [
        f"url: {y_scalar(creator['url'])}",
        f"title: {y_scalar(creator['title'])}",
        "kind: creator",
        "data:",
        *y_map(creator["data"], 2),
    ]
    return "---\n" + "\n".join(head) + "\n---\n" + creator["text"]


def build_pool() -> list[dict]:
    hands = hand_specs()
    specs = hands + generate_specs(hands)
    creators = [build(spec) for spec in specs]
    creators.sort(key=lambda c: (list(PLATFORM_DIRS).index(c["platform"]), c["handle"]))
    return creators


def hand_table() -> str:
    lines = []
    for brief, entries in HAND_GROUPS:
        lines += ["", f"### {brief}", "", "| Role | Creator | Profile | Why |", "|---|---|---|---|"]
        for e in entries:
            role = "pick" if e["role"] == "pick" else "near miss"
            why = e["why"] or f"{e['niche']} ({', '.join(e['subs'])}), {e['language']}, {e['followers']:,} followers"
            lines.append(
                f"| {role} | {e['name']} ({e['platform']}, {e['region']}) | "
                f"{profile_url(e['platform'], e['handle'])} | {why} |"
            )
    return "\n".join(lines).strip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the consistency rules, write nothing")
    parser.add_argument("--hand-table", action="store_true", help="print the hand-designed creators per brief")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="world folder to write (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.hand_table:
        sys.stdout.write(hand_table())
        return 0
    creators = build_pool()
    failures = [(c["url"], p) for c in creators for p in check(c["data"])]
    urls = [c["url"] for c in creators]
    if len(set(urls)) != len(urls):
        failures.append(("pool", "duplicate profile URLs"))
    for url, problem in failures:
        print(f"{url}: {problem}", file=sys.stderr)
    if failures:
        return 1
    if args.check:
        print(f"{len(creators)} creators pass the consistency rules")
        return 0
    for folder in PLATFORM_DIRS.values():
        target = args.out / folder
        target.mkdir(parents=True, exist_ok=True)
        for old in sorted(target.glob("*.md")):
            old.unlink()
    for c in creators:
        path = args.out / PLATFORM_DIRS[c["platform"]] / f"{c['handle']}.md"
        path.write_text(page(c), encoding="utf-8", newline="\n")
    counts = {p: sum(1 for c in creators if c["platform"] == p) for p in PLATFORM_DIRS}
    print(f"wrote {len(creators)} creators to {args.out}: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
