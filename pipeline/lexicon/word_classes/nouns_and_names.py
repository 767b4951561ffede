"""Word classes of the rewrite rules: nouns, names and places."""

from __future__ import annotations

from bsl_pipeline.pipeline.lexicon.word_classes.function_words import DETERMINERS

# (abbreviation as tokenized, without its final period; whether it is written with a period; full form; kind)
ABBREVIATIONS: tuple[tuple[str, bool, str, str], ...] = (
    ("U.S", True, "United States", "country"), ("US", False, "United States", "country"),
    ("U.K", True, "United Kingdom", "country"), ("UK", False, "United Kingdom", "country"),
    ("U.N", True, "United Nations", "organisation"), ("UN", False, "United Nations", "organisation"),
    ("EU", False, "European Union", "organisation"),
    ("Jan", True, "January", "month"), ("Feb", True, "February", "month"), ("Aug", True, "August", "month"),
    ("Sept", True, "September", "month"), ("Sep", True, "September", "month"), ("Oct", True, "October", "month"),
    ("Nov", True, "November", "month"), ("Dec", True, "December", "month"),
    ("Gov", True, "Governor", "title"), ("Sen", True, "Senator", "title"), ("Rep", True, "Representative", "title"),
    ("Gen", True, "General", "title"), ("Lt", True, "Lieutenant", "title"), ("Col", True, "Colonel", "title"),
    ("Sgt", True, "Sergeant", "title"), ("Capt", True, "Captain", "title"), ("Adm", True, "Admiral", "title"),
    ("Prof", True, "Professor", "title"), ("Mt", True, "Mount", "title"),
    ("vs", True, "versus", "versus"), ("vs", False, "versus", "versus"), ("v", True, "versus", "case"),
    ("&", False, "and", "ampersand"),
)
NAME_SIGNS = frozenset("$ £ € # no no. number nos vol chapter page pages p. pp. part article section version "
                       "level grade round game week day year at terminal gate room platform route line track exit "
                       "pier studio floor".split())
GARMENTS = frozenset("shirt t-shirt tshirt jacket hat dress coat uniform costume sweater sweatshirt hoodie jeans "
                     "pants shorts swimsuit suit helmet glasses sunglasses outfit skirt top vest apron robe gown "
                     "bikini clothes clothing overalls boots shoes scarf cap mask tuxedo pajamas trousers jersey "
                     "blouse tank attire gear wetsuit trunks hijab turban sari kimono leotard bathrobe "
                     "raincoat parka cardigan".split())
# pairs of names that are one name, a title or a fixed order (lower case, "and" left out)
FIXED_NAME_PAIRS = frozenset(
    "bosnia herzegovina|trinidad tobago|antigua barbuda|turks caicos|sao tome principe|kitts nevis|procter gamble|"
    "johnson johnson|simon garfunkel|marks spencer|tom jerry|romeo juliet|sodom gomorrah|adam eve|jack jill|"
    "hansel gretel|jekyll hyde|bonnie clyde|lewis clark|laurel hardy|abbott costello|batman robin|sonny cher|"
    "hall oates|barnes noble|ben jerry|black decker|smith wesson|ernst young|bausch lomb|arm hammer|simon schuster|"
    "harper row|sears roebuck|fortnum mason|dolce gabbana|rodgers hammerstein|gilbert sullivan|lerner loewe|"
    "starsky hutch|mork mindy|will grace|pride prejudice|war peace|crime punishment|sense sensibility|law order|"
    "antony cleopatra|troilus cressida|tristan isolde|samson delilah|cain abel|castor pollux|romulus remus|"
    "mason dixon|lord taylor|standard poor|bang olufsen|tate lyle|rolls royce|harley davidson|pratt whitney|"
    "stars stripes|father son|gas electric|research development|trade industry|arts sciences|food drug|"
    "ferdinand isabella|william mary|lewis clark|tweedledum tweedledee|punch judy|beauty beast".split("|"))
NAME_COMPANIONS = frozenset("sons son co company associates partners brothers daughters sisters friends "
                             "family partner others".split())
BEFORE_NAMES = frozenset("the of between from and or & , among both either neither".split())
# lower-case nouns that name a speaker after a determiner ("said the company"); another noun may be what was said
# ("He stood up, said the words.") unless a quotation shows the tag
SPEAKER_HEADS = frozenset(
    "man woman men women boy girl child voice stranger officer official spokesman spokeswoman spokesperson "
    "company firm agency ministry department government report statement study survey document source "
    "president chairman director minister secretary manager analyst lawyer attorney judge doctor prosecutor "
    "police sheriff detective inspector officer coroner witness expert leader chief captain general colonel "
    "sergeant soldier guard driver owner father mother daughter son wife husband brother sister friend "
    "professor teacher student author writer critic editor publisher reporter newspaper paper magazine website "
    "site group organization association union council committee board commission court senator governor mayor "
    "king queen prince princess lady gentleman fellow old young other first second last latter former "
    "administration institute center centre bank".split())
# a bare plural speaker ("..., officials said", "..., said Pentagon officials")
BARE_SPEAKERS = frozenset("officials police sources analysts experts witnesses authorities prosecutors "
                           "investigators residents doctors scientists researchers officers lawyers activists "
                           "economists diplomats".split())
# a capitalised word after "said" that is what was said ("She bowed her head, said Amen.")
NOT_SPEAKERS = frozenset("amen hello hi yes no ok okay goodbye goodnight thanks please sorry".split())
TITLE_ABBREVIATIONS = frozenset(
    "mr mrs ms dr gov sen rep gen capt col lt sgt prof st rev adm maj cpl pvt atty supt".split())
NAME_SUFFIX_ABBREVIATIONS = frozenset("jr sr inc co corp ltd bros plc llc".split())
PERIOD_ABBREVIATIONS = frozenset(
    "mr mrs ms dr st jr sr gov rep sen gen inc co corp ltd lt col sgt prof no vs etc jan feb mar apr jun jul aug sep "
    "sept oct nov dec mt ft".split())
CONTENT_NOUNS = frozenset("fact idea belief notion claim hope news sense evidence possibility chance view assumption "
                           "suggestion argument proof sign signs report reports rumor rumour feeling impression "
                           "conclusion doubt fear worry concern".split())  # "the fact that X, and Y": Y may be in it
BINOMIAL_PAIRS = frozenset(tuple(p.split("+")) for p in (
    "right+wrong life+death good+evil rich+poor black+white young+old war+peace heaven+earth heaven+hell day+night "
    "night+day now+then here+there past+present east+west north+south old+new man+wife husband+wife fact+fiction "
    "truth+lies bride+groom ladies+gentlemen "
    "love+hate friend+foe friends+foes").split())
# nouns that name people: "that" after them is no "which"
PERSON_NOUNS = frozenset(
    "man men woman women person people child children kid kids boy boys girl girls baby babies guy guys lady "
    "ladies gentleman gentlemen friend friends family families parent parents mother mothers father fathers son "
    "sons daughter daughters brother brothers sister sisters husband husbands wife wives individual individuals "
    "citizen citizens resident residents student students patient patients client clients customer customers "
    "victim victims official officials staff crew team teams group groups couple couples folks someone anyone "
    "everyone somebody anybody everybody one ones those nobody cop cops doctor doctors nurse nurses member "
    "members youth youths adult adults teen teens teenager teenagers relative relatives colleague colleagues "
    "employee employees spouse spouses partner partners agent agents chief chiefs judge judges candidate "
    "candidates expert experts immigrant immigrants refugee refugees soldier soldiers troops hero heroes "
    "guest guests host hosts audience crowd public human humans foe foes enemy enemies rebel rebels militant "
    "militants ally allies hostage hostages suspect suspects pilgrim pilgrims fan fans gay gays delegate delegates "
    "deputy deputies bishop bishops priest priests pope monk monks nun nuns king kings queen queens prince "
    "princes princess lord lords boss bosses chef chefs cook cooks guard guards pilot pilots clerk clerks coach "
    "coaches captain captains mayor mayors athlete athletes celebrity celebrities thief thieves gang gangs mob "
    "infant infants spouse widow widows orphan orphans mom moms dad dads grandma grandpa aunt aunts uncle uncles "
    "niece nieces nephew nephews cousin cousins twin twins bride brides groom grooms personnel faculty squad "
    "police marine marines scout scouts jury witness witnesses inmate inmates convict convicts surgeon surgeons "
    "vet vets attorney attorneys analyst analysts critic critics fool fools idiot idiots genius geniuses dude "
    "dudes folk senior seniors pupil pupils graduate graduates alumni native natives local locals democrat "
    "democrats republican republicans liberal liberals rival rivals champion champions poet poets plaintiff "
    "plaintiffs casualty casualties ceo ceos executive executives representative representatives".split())
PERSON_SUFFIXES = ("an", "ans", "er", "ers", "or", "ors", "ist", "ists", "ian", "ians", "ant", "ants", "ent", "ents",
                   "ee", "ees", "ess", "man", "men", "son", "sons", "ite", "ites", "eur", "eurs", "ic", "ics", "ive",
                   "ives", "ary", "aries", "ar", "ars")
ANIMALS = frozenset("dog dogs cat cats horse horses puppy puppies kitten kittens bird birds animal animals cow cows "
                    "sheep goat goats pony ponies".split())
# nouns that take "to" + a noun phrase ("road to recovery"): the word after their "to" is no verb
TO_NOUNS = frozenset("effort attempt bid plan push drive campaign struggle race fight battle challenge "
                     "decision ability failure need chance opportunity time permission license licence proposal "
                     "motion pressure deal agreement pledge vow offer request demand step lesson rule path road "
                     "route key guide trip visit journey return gateway door answer solution threat "
                     "challenge access approach response reply right way commitment attention contribution damage "
                     "harm tribute letter message call appeal move shift switch transition link ties tie boost blow "
                     "setback ode prelude sequel alternative heir successor rival bridge ticket tickets passage "
                     "entry exit runway ramp march walk ride flight voyage trek pilgrimage invitation "
                     "introduction resistance opposition objection exposure reference attachment devotion "
                     "loyalty obstacle barrier end".split())
ROUNDUP_NOUNS = frozenset("thing place reason tip question fact book stock film movie song way idea word sign "
                          "game show trend name destination spot".split())
HEADLINE_FUNCTION = frozenset("of and the a an".split())
# words after "going to" that make it a motion or a fixed phrase ("going to bed", "going to waste"), not a future
GOING_PLACES = frozenset("work bed church court jail prison town sea war market press sleep college school class "
                         "lunch dinner breakfast supper camp hospital mass trial waste pieces seed shore ground pot "
                         "hell heaven rest print extremes law sea vote ruin fat stage".split())
PLURAL_ONLY = frozenset("people police cattle clergy personnel folk folks livestock poultry vermin".split())
PLURAL_WORDS = frozenset("police people men women children dozens hundreds thousands millions scores several many "
                          "both few cattle troops".split())
SINGULAR_WORDS = frozenset("one news".split())
NOT_IN_HEADLINE = frozenset(('"', "“", "”", "'", "‘", "’", "?", ";", "(", ")"))
CAPTION_SUBJECTS = frozenset(
    "man men woman women boy boys girl girls person people child children kid kids baby babies toddler toddlers "
    "guy guys lady ladies gentleman gentlemen player players skier skiers surfer surfers skateboarder "
    "skateboarders snowboarder snowboarders cyclist cyclists biker bikers rider riders climber climbers runner "
    "runners swimmer swimmers dancer dancers singer singers musician musicians worker workers soldier soldiers "
    "couple student students teenager teenagers teen teens adult adults chef cook doctor nurse policeman "
    "policemen fireman firemen firefighter firefighters athlete athletes hiker hikers tourist tourists performer "
    "performers drummer guitarist pianist violinist boxer boxers wrestler wrestlers goalie pitcher batter "
    "skater skaters jogger joggers vendor shopper shoppers pedestrian pedestrians driver farmer fisherman "
    "fishermen hunter artist painter clown magician juggler gymnast gymnasts diver divers sailor sailors cowboy "
    "cowboys motorcyclist motorcyclists bicyclist bicyclists competitor competitors officer officers "
    "dog dogs puppy puppies cat cats kitten kittens horse horses bird birds cow cows goat goats monkey monkeys "
    "elephant elephants lion lions tiger tigers bear bears panda pandas rabbit rabbits bunny squirrel squirrels "
    "turtle turtles tortoise duck ducks camel camels hamster mouse mice rat rats snake snakes lizard lizards frog "
    "frogs octopus shark sharks dolphin dolphins penguin penguins parrot parrots chicken chickens rooster pig pigs "
    "kangaroo koala giraffe giraffes zebra zebras cheetah leopard fox wolf otter otters seal seals slug snail "
    "deer sheep ferret hedgehog lemur gorilla chimpanzee raccoon owl eagle hawk swan goose geese calf bull "
    "car cars truck trucks bus train plane airplane jet helicopter boat boats motorcycle motorcycles".split())
IRREGULAR_PLURAL_SUBJECTS = frozenset(
    "men women people children mice geese gentlemen policemen firemen fishermen".split())
# Collective nouns before "of" + a plural ("A group of people"); a singular one takes either number from its verb.
COLLECTIVES = frozenset("group crowd team herd flock pack family pair couple bunch line".split())
PLURAL_COLLECTIVES = frozenset("couple bunch".split())  # "A couple of kids walk", never "walks"
SUBJECT_MODIFIERS = frozenset("in with".split())
US_STATES = frozenset(
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois "
    "indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri "
    "montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia washington "
    "wisconsin wyoming calif fla ill mass mich minn okla ore tenn tex va wash wis kan ky la md mo nc sc nj ny pa "
    "ga ala ariz ark colo conn del ind neb nev".split())
PLACES = frozenset(
    # countries
    "Afghanistan|Albania|Algeria|Angola|Argentina|Armenia|Australia|Austria|Azerbaijan|Bahrain|Bangladesh|Belarus|"
    "Belgium|Bolivia|Bosnia|Brazil|Britain|Bulgaria|Burma|Cambodia|Cameroon|Canada|Chad|Chile|China|Colombia|Congo|"
    "Croatia|Cuba|Cyprus|Denmark|Ecuador|Egypt|England|Eritrea|Estonia|Ethiopia|Finland|France|Georgia|Germany|"
    "Ghana|Greece|Guatemala|Haiti|Honduras|Hungary|Iceland|India|Indonesia|Iran|Iraq|Ireland|Israel|Italy|Jamaica|"
    "Japan|Jordan|Kazakhstan|Kenya|Korea|Kosovo|Kuwait|Laos|Latvia|Lebanon|Liberia|Libya|Lithuania|Luxembourg|"
    "Malaysia|Mali|Malta|Mexico|Moldova|Mongolia|Montenegro|Morocco|Mozambique|Myanmar|Nepal|Nicaragua|Niger|Nigeria|"
    "Norway|Oman|Pakistan|Palestine|Panama|Paraguay|Peru|Poland|Portugal|Qatar|Romania|Russia|Rwanda|Scotland|"
    "Senegal|Serbia|Singapore|Slovakia|Slovenia|Somalia|Spain|Sudan|Sweden|Switzerland|Syria|Taiwan|Tanzania|"
    "Thailand|Tibet|Tunisia|Turkey|Uganda|Ukraine|Uruguay|Uzbekistan|Venezuela|Vietnam|Wales|Yemen|Zambia|Zimbabwe|"
    "North Korea|South Korea|South Africa|Saudi Arabia|New Zealand|Sri Lanka|Costa Rica|Puerto Rico|Hong Kong|"
    "Northern Ireland|East Timor|Ivory Coast|Sierra Leone|El Salvador|Czech Republic|Dominican Republic|"
    # continents and regions
    "Africa|Asia|Europe|America|Antarctica|Australasia|Scandinavia|Siberia|Normandy|Brittany|Provence|Tuscany|"
    "Sicily|Sardinia|Corsica|Crete|Bavaria|Catalonia|Andalusia|Galicia|Flanders|Kashmir|Punjab|Bengal|Kurdistan|"
    "Chechnya|Darfur|Gaza|Galilee|Judea|Patagonia|Yorkshire|Cornwall|Kent|Ulster|Madeira|Santorini|Macau|Bali|Java|"
    "Sumatra|Borneo|Tasmania|Quebec|Ontario|Alberta|Manitoba|Patagonia|Latin America|North America|South America|"
    "Central America|East Africa|West Africa|Southeast Asia|Central Asia|Eastern Europe|Western Europe|"
    "Middle East|West Bank|Gaza Strip|"
    # US states
    "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Hawaii|Idaho|Illinois|"
    "Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|"
    "Montana|Nebraska|Nevada|Ohio|Oklahoma|Oregon|Pennsylvania|Tennessee|Texas|Utah|Vermont|Virginia|Washington|"
    "Wisconsin|Wyoming|New Hampshire|New Jersey|New Mexico|New York|North Carolina|South Carolina|North Dakota|"
    "South Dakota|Rhode Island|West Virginia|"
    # cities
    "London|Paris|Berlin|Madrid|Rome|Moscow|Tokyo|Beijing|Shanghai|Delhi|Mumbai|Bombay|Calcutta|Kolkata|Karachi|"
    "Lahore|Islamabad|Kabul|Baghdad|Tehran|Cairo|Istanbul|Ankara|Athens|Vienna|Prague|Warsaw|Budapest|Brussels|"
    "Amsterdam|Dublin|Edinburgh|Glasgow|Manchester|Liverpool|Birmingham|Lisbon|Barcelona|Seville|Milan|Naples|"
    "Venice|Florence|Munich|Hamburg|Frankfurt|Geneva|Zurich|Stockholm|Oslo|Copenhagen|Helsinki|Kiev|Kyiv|Minsk|"
    "Belgrade|Bucharest|Sofia|Jerusalem|Damascus|Beirut|Amman|Riyadh|Dubai|Doha|Nairobi|Lagos|Johannesburg|"
    "Singapore|Bangkok|Jakarta|Manila|Seoul|Pyongyang|Taipei|Hanoi|Sydney|Melbourne|Toronto|Montreal|Vancouver|"
    "Chicago|Boston|Philadelphia|Detroit|Atlanta|Miami|Houston|Dallas|Denver|Seattle|Baltimore|Pittsburgh|"
    "Cleveland|Phoenix|Tucson|Portland|Minneapolis|Anaheim|Honolulu|Havana|Caracas|Lima|Bogota|Santiago|Rio|"
    "Mexico City|Los Angeles|San Francisco|San Diego|San Antonio|New Orleans|Las Vegas|Buenos Aires|"
    "Sao Paulo|Rio de Janeiro|Cape Town|Hong Kong|Tel Aviv|Abu Dhabi|Kuala Lumpur|New Delhi|Washington DC|"
    "Rouen|Lyon|Marseille|Nice|Kyoto|Osaka|Mecca|Medina|Basra|Mosul|Kandahar|Gaza City|Tripoli|Benghazi|"
    "Aleppo|Homs|Odessa|Crimea|Sevastopol|Oxford|Cambridge|Madrid|Granada|Valencia|Toledo|Cordoba|Malaga|"
    # organisations
    "NATO|NASA|OPEC|UNESCO|UNICEF|Interpol|Europol|Microsoft|Google|Apple|Amazon|IBM|Intel|Facebook|Twitter|"
    "Yahoo|Toyota|Boeing|Airbus|Enron|Sony|Samsung|Nokia|Oracle|Cisco|Dell|Hewlett-Packard|Motorola|Siemens|"
    "Volkswagen|Nissan|Honda|Ford|Chrysler|Walmart|Wal-Mart|Exxon|ExxonMobil|Chevron|Shell|Gazprom|Citigroup|"
    "Barclays|HSBC|Goldman Sachs|Morgan Stanley|JPMorgan|Merrill Lynch|AOL|Netflix|Starbucks|"
    "Disney|Pfizer|Novartis|Nestle|Unilever|Vodafone|Verizon|Qualcomm|PeopleSoft|Compaq|"
    "Hamas|Hezbollah|Fatah|Taliban|Al-Qaeda|al-Qaeda|Congress|Parliament|Harvard|Yale|Princeton|Stanford".split("|"))
# names that take "the" (in the `of` form and the possessive alike)
THE_PLACES = frozenset("United States|United Kingdom|Netherlands|Philippines|European Union|United Nations|"
                        "Vatican|Kremlin|Pentagon|White House|Soviet Union|Middle East|West Bank|Gaza Strip|"
                        "Caribbean|Balkans|Alps|Sahara|Amazon|Thames|Nile|Kremlin|Senate|House".split("|"))
# heads that tell that an unknown capitalised possessor is a company or a country ("Enron's shares")
FINANCE_HEADS = frozenset("shares stock stocks shareholders stockholders earnings revenue revenues profit profits "
                           "sales economy population share price".split()) - {"share", "price"}
# heads that tell that an unknown capitalised possessor is a place ("Funchal's central area", "Agra's monuments")
PLACE_HEADS = frozenset("area areas streets beaches harbour harbor port monuments churches museums cathedral "
                         "coastline waterfront suburbs neighborhoods neighbourhoods districts skyline "
                         "population".split())
PERSON_TITLES = frozenset("Mr Mrs Ms Dr President King Queen Prince Princess Senator Governor Pope St Saint Lord Lady "
                    "Sir".split())
THING_POSSESSORS = frozenset(
    "company companies firm corporation bank group party government administration agency committee council "
    "board department ministry court army navy military police team club league union association institute "
    "foundation organization organisation network channel station newspaper paper magazine museum university "
    "college school hospital church restaurant hotel store shop airline airport industry market economy "
    "country nation state city town village region province county district island continent world planet earth "
    "moon sun river lake sea ocean mountain valley coast building house tower bridge castle palace temple tomb "
    "cathedral monastery ship boat plane aircraft car vehicle engine machine computer system program programme "
    "project plan law bill treaty agreement campaign regime movement project film movie book novel show series "
    "song album game story report study survey website site body brain heart skin cell "
    "dog dogs cat horse bird animal tree plant commission regime".split())
PAST_NOUNS = frozenset("fell rose found saw felt left".split())  # past tenses that are nouns only rarely
BAD_HEADS = frozenset("own sake worth share way turn fault behalf part kind sort lot".split())
NOT_OF_HEADS = frozenset(  # "the N of X" that is no possession of X
    "rest whole most all some one part parts half majority number end beginning middle center centre heart top "
    "bottom side edge north south east west city town state province island kingdom republic county region people "
    "name names citizens capital-city outskirts area areas suburbs rest kind sort type form version case example "
    "issue question problem idea".split())
# heads that read as something done to the possessor once said with "of" ("the government's investigation" ->
# "the investigation of the government"), or as an event in a place ("Russia's election" -> "the election of Russia")
AMBIGUOUS_HEADS = frozenset(
    "attack attacks arrest murder killing killings defeat capture support criticism control rule loss rescue "
    "release removal trial surrender purchase sale takeover review analysis study survey portrait picture image "
    "photo photograph painting map view treatment approval defense defence protection bombing shelling siege "
    "war wars election elections crisis revolution earthquake vote referendum riots protests uprising coup "
    "ear eye eyes hands hand heart violence yuan dollar euro yen rupee peso ruble rouble plant".split())
TION_HEADS_OK = frozenset("population constitution position tradition reputation foundation organization "
                           "organisation institution collection nation region".split())
# heads whose "of" phrase is the possessor's in the other direction too ("the capital of France" -> "France's
# capital")
OF_HEADS = frozenset(
    "capital economy government president presidents leader leaders king kings queen queens emperor prime "
    "minister ministers parliament army navy currency constitution history culture cuisine population people "
    "beaches coast coastline borders mines wines churches museums streets monuments cities towns villages "
    "industry industries exports imports farmers workers citizens residents inhabitants rulers ruler "
    "ambassador embassy police".split()) - {"prime", "people"}
# objects after which the particle would read as a preposition of place or direction ("turned off the road")
PLACE_OBJECTS = frozenset(
    "road roads street streets hill hills stairs staircase steps ladder mountain slope path trail track highway "
    "river stream bridge lane alley corridor hall hallway aisle ramp bank field fields sidewalk pavement block "
    "beach shore coast bus train plane boat ship car truck stage court pitch bed couch sofa wall fence tree "
    "building tower floor ground table shelf desk counter line rail rails runway page list screen way".split())
# "turn on"/"switch off" are transitive phrasal verbs only with a device ("turned on his friend", "turn on an axis")
DEVICES = frozenset("light lights lamp tv television radio computer laptop microwave engine motor oven stove fan "
                     "music water heat heater tap faucet power phone alarm machine camera switch".split())
LIGHT_THEMES = frozenset(
    "hand call chance try break hug kiss look go ride lift push smile ring shot glance nod wave piece time "
    "bath haircut shower massage wash hint clue boost favor favour lesson door finger benefit headache "
    "run creeps thought credit way rise birth pause reason idea sense impression feeling opportunity advantage "
    "edge start choice option warning heads-up cold shoulder ear slip shout thumbs-up answer hard".split())
RECIPIENTS = frozenset(  # nouns that may stand as a recipient after a determiner ("handing a woman a flyer")
    "man woman boy girl child kid baby person lady guy gentleman men women boys girls children kids people "
    "customer customers crowd audience player players friend friends mother father daughter son teacher student "
    "students driver officer passenger passengers visitor visitors tourist tourists fan fans dog cat horse "
    "bride groom couple family".split())
TELL_THEMES = frozenset("story stories joke jokes secret secrets lie lies truth news tale tales".split())
MASS_NOUNS = frozenset(
    "water money time food evidence information news advice help sense difference interest damage traffic "
    "furniture equipment work progress research knowledge experience luck power electricity light space room "
    "support trouble fun milk coffee tea bread rain snow air oil gas fuel sign signs mention record data "
    "proof reason need".split())
# full form -> its abbreviation, for the way back (countries and organisations only)
SHORT_FORMS = {"United States": "U.S.", "United Kingdom": "UK", "United Nations": "UN", "European Union": "EU"}
VOWEL_SOUND = frozenset({"EU"})  # abbreviations read with a vowel sound: "an EU envoy"
# nouns after "US"/"UK" with which "United States"/"United Kingdom" reads as the state's own
STATE_NOUNS = frozenset(
    "troops forces military army navy soldiers marines officials official government administration embassy "
    "consulate diplomats diplomat envoy ambassador authorities intelligence economy citizens citizen dollar dollars "
    "interests territory border borders coast soil policy policies sanctions aid president "
    "lawmakers senators congressmen prosecutors attorney regulators law laws courts court election elections "
    "presidency embassies mission delegation forces warships warship jets drones drone strike strikes "
    "spokesman spokeswoman commander commanders envoys negotiators".split())
# nouns after "UN"/"EU" that are the organisation's own (not "EU books": the Expanded Universe)
ORGANISATION_NOUNS = STATE_NOUNS | frozenset(
    "resolution resolutions monitors monitor observers observer chief draft authorization authorisation summit "
    "ministers minister meetings meeting members member states countries nations leaders leader agriculture "
    "representative representatives report inspectors inspector peacekeepers peacekeeping mandate vote talks "
    "agency agencies body bodies budget rules regulations directive funds funding plan plans proposal bid "
    "membership partners commission commissioner presidency treaty chief's secretary-general staff "
    "headquarters agreement deal sanctions negotiator mission missions investigators experts".split())
NAME_TAILS = frozenset("Airways Air Open Steel Bancorp Cellular Weekly Magazine Bank Oil Sugar Robotics Foods "
                        "Airlines Open's Inc Corp Ltd Company Co".split())
SUBJECT_DETS = (DETERMINERS | frozenset("each every no most both all any another such".split())) - {"that"}
IRREGULAR_PLURALS = frozenset("people children men women feet teeth mice geese police cattle".split())
MASS_LIKE = frozenset("data media news stuff thanks returns series species means hundreds thousands millions "
                       "billions dozens tens scores".split())
QUANTITY_HEADS = frozenset("number lot lots plenty couple majority minority group bunch variety total percent half "
                            "rest most some all none one series set pair team crowd family dozens hundreds thousands "
                            "millions kind kinds type types sort sorts piece pieces part parts".split())
CLEAR_PLURALS = frozenset("people police cattle".split())
INVARIANT_PLURALS = frozenset("sheep fish deer aircraft offspring data media staff public personnel".split())  # either
# bare singular nouns that head a headline's subject without being a name ("Woman killed by ...")
CAPTION_PERSON_NOUNS = frozenset("man woman boy girl teen teenager child baby toddler mother father son daughter wife "
                          "husband student teacher doctor nurse officer soldier driver cyclist pedestrian "
                          "passenger tourist hiker swimmer worker priest farmer policeman dog cat horse shark "
                          "whale".split())
# capitalised words that are common nouns and also names of companies or places, kept out of lower-casing
NAME_WORDS = frozenset("apple amazon shell target ford mars jaguar virgin orange time sun mirror".split())
BODY_PARTS = frozenset(
    "head heads hand hands arm arms leg legs foot feet finger fingers fingernails nails toe toes hair face faces "
    "teeth tooth eye eyes eyelid eyelids eyebrows nose mouth tongue lips lip ear ears wing wings tail neck back "
    "belly stomach chest shoulder shoulders knee knees body beard mustache abs biceps muscles skin cheek cheeks "
    "fist fists palm palms wrist wrists".split())
# bare singular objects that stand alone (mass nouns): "Meat is being cut by a man"; a bare count noun is refused
CAPTION_MASS_NOUNS = frozenset(
    "meat beef pork chicken fish shrimp water milk juice wine beer coffee tea oil butter cheese bread dough flour "
    "sugar salt pepper rice pasta spaghetti noodles soup sauce garlic ginger lettuce cabbage celery broccoli corn "
    "spinach paper wood cardboard grass hay sand snow dirt soil food paint ice cream batter".split())
# verbs whose "with" + a bare noun is their material or instrument ("filling a pitcher with water")
BARE_PLACES = frozenset("stage home school work church bed court town camera screen".split())  # "on stage"
COLOURS = frozenset("red blue green yellow black white brown pink purple orange gray grey striped dark "
                     "colored coloured".split())
APPEARANCE_NOUNS = frozenset("hair beard tattoos tattoo glasses sunglasses mustache makeup eyes background foreground "
                   "distance".split())
SIDES_AND_COMPASS_POINTS = frozenset("left right north south east west northeast northwest southeast southwest".split())
INTEREST_NOUNS = frozenset("interest note importance significance concern value".split())
