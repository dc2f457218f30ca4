// Demo content for cliniq-portal: source passages, QA items in the ClinIQLink record format and
// model responses. Everything here is original content written for this project (not taken from
// or paraphrased from the ClinIQLink dataset); the ISBN is fake and the model names are fictional.

export type DemoPassage = { paragraph_id: string; isbn: string; page: number; text: string };

type DemoSource = { isbn: string; page: number; paragraph_id: string };

export type DemoQaRecord =
	| { question: string; answer: 'True' | 'False'; source: DemoSource; type: 'true_false' }
	| {
			question: string;
			correct_answer: string;
			options: string[];
			source: DemoSource;
			type: 'multiple_choice';
	  }
	| { question: string; answer: string[]; options: string[]; source: DemoSource; type: 'list' }
	| { question: string; answer: string; source: DemoSource; type: 'short_answer' }
	| {
			question: string;
			answer: string;
			false_answer: string;
			incorrect_explanation: string;
			source: DemoSource;
			type: 'short_inverse';
	  }
	| {
			question: string;
			answer: string;
			reasoning: string[];
			source: DemoSource;
			type: 'multi_hop';
	  }
	| {
			question: string;
			answer: string;
			reasoning: string[];
			incorrect_reasoning_step: string[];
			source: DemoSource;
			type: 'multi_hop_inverse';
	  };

export const demoPassages: DemoPassage[] = [
	{
		paragraph_id: 'demo-0001-p012-para03',
		isbn: '978-0-00-000000-0',
		page: 12,
		text: "Hypertension in primary care is confirmed with ambulatory or home blood pressure monitoring when clinic readings are 140/90 mmHg or higher, because isolated clinic measurements overestimate blood pressure in many patients (the 'white-coat' effect). Once the diagnosis is made, lifestyle measures — reducing salt intake, limiting alcohol, regular aerobic exercise and weight loss — are offered to everyone. For drug treatment, adults under 55 years without type 2 diabetes usually start an ACE inhibitor such as ramipril or an angiotensin II receptor blocker (ARB); people aged 55 or over, and people of Black African or African-Caribbean family origin, usually start a calcium-channel blocker such as amlodipine. An ACE inhibitor or ARB is generally preferred in type 2 diabetes at any age. ACE inhibitors commonly cause a dry cough, in which case an ARB is substituted. Renal function and potassium are checked before starting and one to two weeks after starting or increasing an ACE inhibitor or ARB. The clinic target for most adults under 80 is below 140/90 mmHg."
	},
	{
		paragraph_id: 'demo-0001-p027-para02',
		isbn: '978-0-00-000000-0',
		page: 27,
		text: "Metformin remains the usual first-line glucose-lowering drug for adults with type 2 diabetes when lifestyle measures alone do not achieve the individual HbA1c target. It lowers hepatic glucose output, does not cause weight gain and rarely causes hypoglycaemia when used alone. Gastrointestinal effects such as nausea, diarrhoea and abdominal discomfort are common; starting at a low dose and titrating slowly, or switching to a modified-release preparation, improves tolerance. Because metformin is excreted by the kidneys, the dose is reviewed when the estimated glomerular filtration rate (eGFR) falls below 45 mL/min/1.73 m² and the drug is stopped when eGFR falls below 30 mL/min/1.73 m². Long-term use can reduce vitamin B12 absorption, so B12 should be checked if anaemia or neuropathy develops. Metformin is temporarily withheld during acute illness with dehydration ('sick day rules'), because of the small risk of lactic acidosis. In patients with established cardiovascular disease or heart failure, an SGLT2 inhibitor is added."
	},
	{
		paragraph_id: 'demo-0001-p041-para01',
		isbn: '978-0-00-000000-0',
		page: 41,
		text: 'Community-acquired pneumonia presents with cough, fever, breathlessness or pleuritic chest pain, often with focal crackles or bronchial breathing on examination. Streptococcus pneumoniae is the commonest cause in adults. In general practice, severity is assessed with the CRB-65 score, which awards one point each for new confusion, a respiratory rate of 30 breaths per minute or more, a systolic blood pressure below 90 mmHg or diastolic of 60 mmHg or below, and age 65 years or over. A score of 0 indicates low risk and most patients can be treated at home; a score of 1 or 2 prompts consideration of hospital assessment, and 3 or 4 indicates high risk needing urgent admission. For low-severity pneumonia, a 5-day course of amoxicillin is first-line; doxycycline or clarithromycin is used in penicillin allergy. Patients should be told that cough may last up to 6 weeks and to return if symptoms worsen or fail to improve after 3 days of treatment.'
	},
	{
		paragraph_id: 'demo-0001-p053-para04',
		isbn: '978-0-00-000000-0',
		page: 53,
		text: 'Inhaled corticosteroids (ICS) are the foundation of asthma treatment because they reduce airway inflammation, exacerbations and asthma deaths. Current international guidance advises against treating adults and adolescents with a short-acting beta2 agonist (SABA) such as salbutamol alone, since SABA-only treatment is associated with a higher risk of severe attacks. For mild asthma, an as-needed combination inhaler of low-dose budesonide and formoterol can be used as the reliever; formoterol acts within minutes, so the same device relieves symptoms and delivers anti-inflammatory treatment. When symptoms are more frequent, the same combination is taken regularly as well as when needed, an approach known as maintenance and reliever therapy (MART). Long-acting beta2 agonists must never be used without an ICS. Poor inhaler technique is a common cause of apparent treatment failure, so technique should be checked at every review, and patients using a pressurised metered-dose inhaler benefit from a spacer. Rinsing the mouth after ICS use reduces the risk of oral candidiasis.'
	},
	{
		paragraph_id: 'demo-0001-p068-para02',
		isbn: '978-0-00-000000-0',
		page: 68,
		text: 'Iron-deficiency anaemia is the most common anaemia seen in general practice. Typical blood findings are a low haemoglobin with microcytic, hypochromic red cells and a low serum ferritin; because ferritin is an acute-phase protein, a normal value does not exclude iron deficiency when inflammation is present. In premenopausal women, heavy menstrual bleeding and pregnancy are frequent causes, but in men and postmenopausal women iron deficiency is assumed to result from gastrointestinal blood loss until proven otherwise, and referral for upper and lower gastrointestinal investigation is indicated. Coeliac disease should be excluded with serological testing. Oral ferrous sulfate 200 mg once daily, or on alternate days, is the usual treatment; taking it with a vitamin C-containing drink may aid absorption, whereas tea and antacids reduce it. Constipation, dark stools and nausea are common adverse effects. Haemoglobin should rise by about 20 g/L within 3–4 weeks, and treatment is continued for around 3 months after the haemoglobin normalises to replenish iron stores.'
	},
	{
		paragraph_id: 'demo-0001-p079-para03',
		isbn: '978-0-00-000000-0',
		page: 79,
		text: 'Primary hypothyroidism is diagnosed by a raised thyroid-stimulating hormone (TSH) with a low free thyroxine (T4). In iodine-sufficient countries the usual cause is autoimmune thyroiditis, often with positive thyroid peroxidase antibodies. Symptoms include tiredness, weight gain, cold intolerance, constipation, dry skin and low mood. Treatment is with levothyroxine taken on an empty stomach, ideally 30–60 minutes before breakfast, and separated from calcium and iron supplements by at least four hours because they impair its absorption. Otherwise healthy adults under 65 may start at a full replacement dose of about 1.6 micrograms per kilogram per day, whereas older people and those with ischaemic heart disease start at 25–50 micrograms daily and increase gradually to avoid precipitating angina. TSH is rechecked 6–8 weeks after any dose change, since it takes this long to reach a new steady state. Once stable, TSH is monitored annually. In pregnancy, levothyroxine requirements usually increase, and the dose is raised as soon as pregnancy is confirmed.'
	},
	{
		paragraph_id: 'demo-0001-p091-para01',
		isbn: '978-0-00-000000-0',
		page: 91,
		text: 'Gout is an inflammatory arthritis caused by deposition of monosodium urate crystals when serum urate is persistently raised. An acute flare typically affects the first metatarsophalangeal joint, which becomes suddenly hot, red, swollen and exquisitely tender, often overnight. Risk factors include male sex, obesity, chronic kidney disease, alcohol (especially beer), sugary drinks and thiazide or loop diuretics. Flares are treated as early as possible with an NSAID (with gastroprotection if needed), low-dose colchicine, or a short course of oral corticosteroid; colchicine doses are limited because diarrhoea is dose-related. Urate-lowering therapy is offered to people with recurrent flares, tophi or chronic kidney disease. Allopurinol is first-line, started at a low dose and titrated monthly to keep serum urate below 360 micromol/L, or below 300 micromol/L if tophi or frequent flares persist. Starting allopurinol can trigger flares, so colchicine prophylaxis is usually given for the first months. A patient already taking allopurinol should continue it during an acute flare rather than stopping it.'
	},
	{
		paragraph_id: 'demo-0001-p104-para02',
		isbn: '978-0-00-000000-0',
		page: 104,
		text: 'In atrial fibrillation, stroke risk is estimated with the CHA2DS2-VASc score, which gives points for congestive heart failure, hypertension, age 75 or over (2 points), diabetes, previous stroke or transient ischaemic attack (2 points), vascular disease, age 65–74, and female sex. Anticoagulation is offered when the score is 2 or more and considered for men with a score of 1, after discussing the balance of benefit and bleeding risk. Bleeding risk is assessed with a tool such as ORBIT, and modifiable factors such as uncontrolled hypertension and excess alcohol are addressed. A direct oral anticoagulant (DOAC) such as apixaban, rivaroxaban, edoxaban or dabigatran is preferred to warfarin for most patients, but warfarin remains necessary in moderate-to-severe mitral stenosis and with mechanical heart valves. Aspirin is not recommended for stroke prevention in atrial fibrillation. DOAC doses depend on age, weight and renal function, so creatinine clearance is checked before starting and at least annually.'
	},
	{
		paragraph_id: 'demo-0001-p118-para05',
		isbn: '978-0-00-000000-0',
		page: 118,
		text: 'Lower urinary tract infection in non-pregnant women usually presents with dysuria, frequency, urgency and suprapubic pain. When two or more of dysuria, new nocturia and cloudy urine are present, infection is likely and a urine dipstick adds little. Escherichia coli causes most infections. First-line treatment for a non-pregnant woman is nitrofurantoin for 3 days if the eGFR is 45 mL/min/1.73 m² or more, or trimethoprim for 3 days if the risk of resistance is low. A urine culture is sent for men, pregnant women, people with recurrent infection or treatment failure, and those over 65. Men with a lower urinary tract infection are treated for 7 days. In pregnancy, trimethoprim is avoided in the first trimester because it is a folate antagonist. Dipstick testing should not be used to diagnose infection in people over 65, as asymptomatic bacteriuria is common. Fever, loin pain or rigors suggest pyelonephritis and need a different antibiotic choice.'
	},
	{
		paragraph_id: 'demo-0001-p132-para01',
		isbn: '978-0-00-000000-0',
		page: 132,
		text: 'Migraine is a primary headache disorder characterised by recurrent attacks lasting 4–72 hours, usually unilateral and throbbing, aggravated by routine physical activity and accompanied by nausea or sensitivity to light and sound. About a third of patients experience aura, most often visual, developing over at least five minutes and lasting under an hour. Acute attacks are treated with an oral triptan combined with an NSAID or paracetamol, taken as early as possible in the headache phase. Triptans are contraindicated in uncontrolled hypertension and in coronary or cerebrovascular disease. Opioids should not be used. Taking simple analgesics on 15 or more days a month, or triptans on 10 or more days a month, risks medication-overuse headache. Preventive treatment is considered when attacks are frequent or disabling; options include propranolol, topiramate and amitriptyline. Topiramate is teratogenic and can reduce the effectiveness of hormonal contraception. Women with migraine with aura should not use combined hormonal contraception, because of the increased risk of ischaemic stroke.'
	},
	{
		paragraph_id: 'demo-0001-p147-para03',
		isbn: '978-0-00-000000-0',
		page: 147,
		text: 'Chronic heart failure is suspected in patients with breathlessness, fatigue and ankle swelling, and the first test is a serum N-terminal pro-B-type natriuretic peptide (NT-proBNP). A level above 2000 ng/L warrants specialist assessment and echocardiography within 2 weeks, and a level between 400 and 2000 ng/L within 6 weeks; obesity lowers NT-proBNP, so a normal value is less reassuring in obese patients. For heart failure with reduced ejection fraction, first-line treatment is an ACE inhibitor such as ramipril (or an ARB) plus a beta-blocker licensed for heart failure, such as bisoprolol, started at a low dose and increased slowly. A mineralocorticoid receptor antagonist such as spironolactone is added if symptoms persist, and an SGLT2 inhibitor such as dapagliflozin is also recommended. Loop diuretics such as furosemide relieve congestion but do not improve survival. Potassium and renal function are monitored whenever these drugs are started or increased. Non-dihydropyridine calcium-channel blockers such as verapamil should be avoided.'
	},
	{
		paragraph_id: 'demo-0001-p163-para02',
		isbn: '978-0-00-000000-0',
		page: 163,
		text: 'Chronic obstructive pulmonary disease (COPD) should be suspected in people over 35 with a risk factor, usually smoking, who have exertional breathlessness, chronic cough or regular sputum. The diagnosis is confirmed by post-bronchodilator spirometry showing an FEV1/FVC ratio below 0.7. Stopping smoking is the single most effective intervention to slow the decline in lung function, and patients should be offered pneumococcal and annual influenza vaccination. Pulmonary rehabilitation is offered to those functionally limited by breathlessness. Initial drug treatment is a short-acting bronchodilator as needed. If breathlessness or exacerbations persist and there are no asthmatic features, a long-acting beta2 agonist (LABA) with a long-acting muscarinic antagonist (LAMA) is added; an inhaled corticosteroid is reserved for those with asthmatic or steroid-responsive features, such as a raised blood eosinophil count, because it increases the risk of pneumonia. An exacerbation with increased sputum purulence is treated with an antibiotic such as amoxicillin, doxycycline or clarithromycin, and a 5-day course of oral prednisolone 30 mg daily is commonly given.'
	}
];

// Indices (used by demoResponses.item): 0–2 true_false, 3–5 multiple_choice, 6–8 list,
// 9–11 short_answer, 12–14 short_inverse, 15–17 multi_hop, 18–20 multi_hop_inverse.
export const demoQaRecords: DemoQaRecord[] = [
	// 0
	{
		question:
			'In a 48-year-old white patient with newly confirmed hypertension and no diabetes, a calcium-channel blocker is the recommended first-line antihypertensive drug.',
		answer: 'False',
		source: { isbn: '978-0-00-000000-0', page: 12, paragraph_id: 'demo-0001-p012-para03' },
		type: 'true_false'
	},
	// 1
	// DELIBERATELY FLAWED (for dispute demos): the gold answer contradicts the source passage and
	// current guidance — allopurinol should be continued during an acute flare, so this should be 'False'.
	{
		answer: 'True',
		question:
			'A patient who is already taking allopurinol should stop it during an acute gout flare and restart it once the flare has settled.',
		source: { isbn: '978-0-00-000000-0', page: 91, paragraph_id: 'demo-0001-p091-para01' },
		type: 'true_false'
	},
	// 2
	{
		question:
			'Combined hormonal contraception should be avoided in women who have migraine with aura.',
		answer: 'True',
		source: { isbn: '978-0-00-000000-0', page: 132, paragraph_id: 'demo-0001-p132-para01' },
		type: 'true_false'
	},
	// 3
	{
		question:
			'A 70-year-old man with community-acquired pneumonia is alert and orientated, has a respiratory rate of 32 breaths per minute and a blood pressure of 118/72 mmHg. What is his CRB-65 score?',
		correct_answer: '2 (intermediate risk)',
		options: ['0 (low risk)', '1 (intermediate risk)', '2 (intermediate risk)', '3 (high risk)'],
		source: { isbn: '978-0-00-000000-0', page: 41, paragraph_id: 'demo-0001-p041-para01' },
		type: 'multiple_choice'
	},
	// 4
	// DELIBERATELY FLAWED (for dispute demos): outdated recommendation. SABA-only reliever therapy
	// is no longer advised and the source passage says so; the passage supports as-needed
	// low-dose budesonide-formoterol, not the gold answer below.
	{
		question:
			'Which reliever regimen is recommended for an adult with newly diagnosed mild asthma who has symptoms about twice a month?',
		correct_answer: 'As-needed salbutamol alone',
		options: [
			'As-needed salbutamol alone',
			'As-needed low-dose budesonide-formoterol',
			'Regular salmeterol alone',
			'Regular oral montelukast alone'
		],
		source: { isbn: '978-0-00-000000-0', page: 53, paragraph_id: 'demo-0001-p053-para04' },
		type: 'multiple_choice'
	},
	// 5
	{
		question:
			'A patient with atrial fibrillation has a mechanical mitral valve replacement. Which anticoagulant should be used for stroke prevention?',
		correct_answer: 'Warfarin',
		options: ['Apixaban', 'Warfarin', 'Aspirin', 'Dabigatran'],
		source: { isbn: '978-0-00-000000-0', page: 104, paragraph_id: 'demo-0001-p104-para02' },
		type: 'multiple_choice'
	},
	// 6
	{
		question:
			'Which of the following are appropriate in the initial management of a 62-year-old man found to have iron-deficiency anaemia?',
		answer: [
			'Coeliac serology',
			'Referral for upper and lower gastrointestinal investigation',
			'Oral ferrous sulfate'
		],
		options: [
			'Coeliac serology',
			'Referral for upper and lower gastrointestinal investigation',
			'Oral ferrous sulfate',
			'Intramuscular vitamin B12 injections',
			'Reassurance without further investigation',
			'Thyroid ultrasound'
		],
		source: { isbn: '978-0-00-000000-0', page: 68, paragraph_id: 'demo-0001-p068-para02' },
		type: 'list'
	},
	// 7
	{
		question:
			'Which of the following are recognised adverse effects or risks of metformin treatment?',
		answer: ['Diarrhoea', 'Vitamin B12 deficiency', 'Lactic acidosis'],
		options: [
			'Diarrhoea',
			'Vitamin B12 deficiency',
			'Weight gain',
			'Lactic acidosis',
			'Frequent hypoglycaemia as monotherapy',
			'Hyperkalaemia',
			'Peripheral oedema'
		],
		source: { isbn: '978-0-00-000000-0', page: 27, paragraph_id: 'demo-0001-p027-para02' },
		type: 'list'
	},
	// 8
	{
		question:
			'Which of the following drugs are recommended as prognostic (disease-modifying) treatment in heart failure with reduced ejection fraction?',
		answer: ['Bisoprolol', 'Ramipril', 'Spironolactone', 'Dapagliflozin'],
		options: [
			'Bisoprolol',
			'Furosemide',
			'Ramipril',
			'Spironolactone',
			'Verapamil',
			'Dapagliflozin',
			'Amlodipine'
		],
		source: { isbn: '978-0-00-000000-0', page: 147, paragraph_id: 'demo-0001-p147-para03' },
		type: 'list'
	},
	// 9
	{
		question:
			'How long after a change in levothyroxine dose should TSH be rechecked, and why is this interval used?',
		answer:
			'TSH should be rechecked 6–8 weeks after a dose change, because it takes that long for thyroid hormone levels and TSH to reach a new steady state.',
		source: { isbn: '978-0-00-000000-0', page: 79, paragraph_id: 'demo-0001-p079-para03' },
		type: 'short_answer'
	},
	// 10
	{
		question: 'Which spirometric finding confirms a diagnosis of COPD?',
		answer: 'A post-bronchodilator FEV1/FVC ratio below 0.7, indicating airflow obstruction.',
		source: { isbn: '978-0-00-000000-0', page: 163, paragraph_id: 'demo-0001-p163-para02' },
		type: 'short_answer'
	},
	// 11
	{
		question:
			'What is the first-line antibiotic treatment for an uncomplicated lower urinary tract infection in a non-pregnant woman with normal renal function?',
		answer:
			'Nitrofurantoin for 3 days, or trimethoprim for 3 days if the risk of resistance is low.',
		source: { isbn: '978-0-00-000000-0', page: 118, paragraph_id: 'demo-0001-p118-para05' },
		type: 'short_answer'
	},
	// 12
	{
		question:
			'Why might a patient taking ramipril for hypertension be switched to an angiotensin II receptor blocker?',
		answer: 'Because ramipril commonly causes ankle swelling, which ARBs do not cause.',
		false_answer: 'Because ramipril commonly causes ankle swelling, which ARBs do not cause.',
		incorrect_explanation:
			'ankle swelling is a typical adverse effect of calcium-channel blockers such as amlodipine, not of ACE inhibitors. The common reason for switching from an ACE inhibitor such as ramipril to an ARB is a persistent dry cough, caused by accumulation of bradykinin, which ARBs do not usually provoke.',
		source: { isbn: '978-0-00-000000-0', page: 12, paragraph_id: 'demo-0001-p012-para03' },
		type: 'short_inverse'
	},
	// 13
	{
		question: 'How should levothyroxine be taken in relation to food and calcium supplements?',
		answer:
			'Levothyroxine should be taken with breakfast together with any calcium supplement, because food and calcium improve its absorption.',
		false_answer:
			'Levothyroxine should be taken with breakfast together with any calcium supplement, because food and calcium improve its absorption.',
		incorrect_explanation:
			'food, calcium and iron all reduce the absorption of levothyroxine. It should be taken on an empty stomach, ideally 30–60 minutes before breakfast, and separated from calcium or iron supplements by at least four hours.',
		source: { isbn: '978-0-00-000000-0', page: 79, paragraph_id: 'demo-0001-p079-para03' },
		type: 'short_inverse'
	},
	// 14
	{
		question: 'What is the role of opioid analgesics in the acute treatment of migraine?',
		answer:
			'Codeine-containing analgesics are the preferred first-line treatment because they are more effective than triptans.',
		false_answer:
			'Codeine-containing analgesics are the preferred first-line treatment because they are more effective than triptans.',
		incorrect_explanation:
			'opioids such as codeine should not be used for acute migraine: they are less effective than triptans, worsen nausea and carry a high risk of medication-overuse headache and dependence. First-line acute treatment is an oral triptan combined with an NSAID or paracetamol, taken early in the headache phase.',
		source: { isbn: '978-0-00-000000-0', page: 132, paragraph_id: 'demo-0001-p132-para01' },
		type: 'short_inverse'
	},
	// 15
	{
		question:
			'A 72-year-old woman with atrial fibrillation has treated hypertension and no other medical history. What is her CHA2DS2-VASc score, and what stroke-prevention treatment should be offered?',
		answer:
			'Her CHA2DS2-VASc score is 3, so she should be offered anticoagulation, usually with a DOAC such as apixaban, after assessing her bleeding risk.',
		reasoning: [
			'Step 1: CHA2DS2-VASc gives 1 point each for hypertension, age 65–74 and female sex, so her score is 3.',
			'Step 2: Anticoagulation is offered when the score is 2 or more, so she meets the threshold.',
			'Step 3: Bleeding risk is assessed (for example with ORBIT) and modifiable factors are addressed, but this does not in itself rule out anticoagulation.',
			'Step 4: She has no mechanical valve or mitral stenosis, so a DOAC is preferred to warfarin; aspirin is not recommended.'
		],
		source: { isbn: '978-0-00-000000-0', page: 104, paragraph_id: 'demo-0001-p104-para02' },
		type: 'multi_hop'
	},
	// 16
	{
		question:
			'A 45-year-old man with community-acquired pneumonia is alert, has a respiratory rate of 22 breaths per minute and a blood pressure of 128/80 mmHg. He developed a rash after amoxicillin in the past. Where should he be managed, and which antibiotic regimen is appropriate?',
		answer:
			'He has a CRB-65 score of 0, so he can be managed at home with a 5-day course of doxycycline (or clarithromycin) because of his penicillin allergy.',
		reasoning: [
			'Step 1: He has no confusion, a respiratory rate below 30, normal blood pressure and is under 65, so his CRB-65 score is 0.',
			'Step 2: A score of 0 indicates low-severity pneumonia that can usually be treated at home with a 5-day antibiotic course.',
			'Step 3: Amoxicillin is first-line, but his penicillin allergy means doxycycline or clarithromycin should be used instead.'
		],
		source: { isbn: '978-0-00-000000-0', page: 41, paragraph_id: 'demo-0001-p041-para01' },
		type: 'multi_hop'
	},
	// 17
	{
		question:
			'A 68-year-old woman with type 2 diabetes takes metformin 1 g twice daily. Her eGFR has fallen from 52 to 38 mL/min/1.73 m² over a year. What should happen to her metformin, and why?',
		answer:
			'Her metformin dose should be reviewed and reduced, but it does not need to be stopped unless the eGFR falls below 30, because metformin is renally excreted and accumulation increases the risk of lactic acidosis.',
		reasoning: [
			'Step 1: Metformin is excreted by the kidneys, so declining renal function leads to accumulation and a higher risk of lactic acidosis.',
			'Step 2: Her eGFR is now below 45 mL/min/1.73 m², the threshold at which the dose is reviewed.',
			'Step 3: Her eGFR remains above 30 mL/min/1.73 m², the threshold for stopping, so metformin can continue at a reduced dose with closer monitoring of renal function.'
		],
		source: { isbn: '978-0-00-000000-0', page: 27, paragraph_id: 'demo-0001-p027-para02' },
		type: 'multi_hop'
	},
	// 18
	{
		question:
			'A 58-year-old man taking bendroflumethiazide has had three gout flares in the past year. What long-term treatment should be started, and what serum urate should it aim for?',
		answer:
			'Start allopurinol at a low dose with colchicine prophylaxis and titrate it to keep serum urate below 480 micromol/L.',
		reasoning: [
			'Step 1: Three flares in a year is recurrent gout, which is an indication to offer long-term urate-lowering therapy.',
			'Step 2: Allopurinol is first-line; it is started at a low dose with colchicine prophylaxis, and the thiazide diuretic, which raises urate, should be reviewed.',
			'Step 3: Crystal formation only occurs at very high urate levels, so titrating allopurinol to a serum urate below 480 micromol/L is sufficient.',
			'Step 4: Therefore allopurinol should be titrated monthly until serum urate is below 480 micromol/L.'
		],
		incorrect_reasoning_step: [
			'- Step 3 contains the incorrect inference that a serum urate below 480 micromol/L is an adequate treatment target.',
			'- Explanation: urate crystallises at concentrations above about 400 micromol/L, so 480 micromol/L is still supersaturated and crystals will not dissolve. Allopurinol should be titrated to keep serum urate below 360 micromol/L, or below 300 micromol/L if tophi or frequent flares persist.'
		],
		source: { isbn: '978-0-00-000000-0', page: 91, paragraph_id: 'demo-0001-p091-para01' },
		type: 'multi_hop_inverse'
	},
	// 19
	{
		question:
			'A 70-year-old man presents with increasing breathlessness and ankle swelling. His NT-proBNP is 2600 ng/L. How soon should he have specialist assessment and echocardiography?',
		answer: 'Within 6 weeks.',
		reasoning: [
			'Step 1: Breathlessness and ankle swelling suggest heart failure, and NT-proBNP is the appropriate first test.',
			'Step 2: Because his NT-proBNP is above 400 ng/L, he falls into the routine referral band.',
			'Step 3: Therefore he should have specialist assessment and echocardiography within 6 weeks.'
		],
		incorrect_reasoning_step: [
			'- Step 2 contains the incorrect inference that a level above 400 ng/L places him in the routine referral band.',
			'- Explanation: the 6-week pathway applies only to levels between 400 and 2000 ng/L. His level of 2600 ng/L is above 2000 ng/L, which warrants specialist assessment and echocardiography within 2 weeks.'
		],
		source: { isbn: '978-0-00-000000-0', page: 147, paragraph_id: 'demo-0001-p147-para03' },
		type: 'multi_hop_inverse'
	},
	// 20
	{
		question:
			'A 64-year-old ex-smoker with COPD remains breathless despite as-needed salbutamol. He has no asthmatic features and a normal blood eosinophil count. Which inhaled maintenance treatment should be added?',
		answer: 'A long-acting beta2 agonist combined with an inhaled corticosteroid.',
		reasoning: [
			'Step 1: Persistent breathlessness despite a short-acting bronchodilator is an indication for long-acting maintenance therapy.',
			'Step 2: He has no asthmatic or steroid-responsive features and his blood eosinophil count is normal.',
			'Step 3: Inhaled corticosteroids reduce airway inflammation in all patients with COPD, so a LABA combined with an ICS is the preferred first maintenance option.',
			'Step 4: Therefore a LABA with an inhaled corticosteroid should be added.'
		],
		incorrect_reasoning_step: [
			'- Step 3 contains the incorrect inference that inhaled corticosteroids benefit all patients with COPD.',
			'- Explanation: inhaled corticosteroids are reserved for people with asthmatic or steroid-responsive features, such as a raised eosinophil count, and increase the risk of pneumonia. Without these features the next step is a LABA combined with a LAMA.'
		],
		source: { isbn: '978-0-00-000000-0', page: 163, paragraph_id: 'demo-0001-p163-para02' },
		type: 'multi_hop_inverse'
	}
];

// Fictional models: medllama-13b is the strongest, clinic-gpt-7b middling, openmed-3b weak and verbose.
export const DEMO_MODELS = ['clinic-gpt-7b', 'medllama-13b', 'openmed-3b'] as const;

export type DemoModel = (typeof DEMO_MODELS)[number];

/**
 * How good the demo physicians find each model's answers to the QA items, on a common scale with
 * the reference: the demo ranking and pairwise studies both judge by it, so their leaderboards
 * roughly agree.
 */
export const DEMO_QUALITY: Readonly<Record<string, number>> = {
	reference: 1.4,
	[DEMO_MODELS[0]]: 0.9,
	[DEMO_MODELS[1]]: 0.6,
	[DEMO_MODELS[2]]: 0.2
};

export const demoResponses: { model: DemoModel; item: number; response: string }[] = [
	// 0 true_false
	{
		model: 'clinic-gpt-7b',
		item: 0,
		response: 'False. Under 55 without diabetes, an ACE inhibitor or ARB is first-line.'
	},
	{ model: 'medllama-13b', item: 0, response: 'False' },
	{
		model: 'openmed-3b',
		item: 0,
		response:
			'True. Calcium-channel blockers such as amlodipine are widely used as first-line antihypertensives and are effective at lowering blood pressure in most adults.'
	},
	// 1 true_false (flawed gold)
	{ model: 'clinic-gpt-7b', item: 1, response: 'False' },
	{
		model: 'medllama-13b',
		item: 1,
		response:
			'False. Allopurinol should be continued during an acute flare; stopping and restarting it causes fluctuations in serum urate that can provoke further flares.'
	},
	{ model: 'openmed-3b', item: 1, response: 'True' },
	// 2 true_false
	{ model: 'clinic-gpt-7b', item: 2, response: 'True' },
	{ model: 'medllama-13b', item: 2, response: 'True' },
	{
		model: 'openmed-3b',
		item: 2,
		response:
			'Answer: True. Women who have migraine with aura have an increased risk of ischaemic stroke, and oestrogen-containing contraceptives increase this risk further, so a progestogen-only method or a copper coil is preferred.'
	},
	// 3 multiple_choice
	{ model: 'clinic-gpt-7b', item: 3, response: 'C' },
	{ model: 'medllama-13b', item: 3, response: '2 (intermediate risk)' },
	{
		model: 'openmed-3b',
		item: 3,
		response:
			'3 (high risk). The patient is 70 years old, has a raised respiratory rate and is clearly unwell, so he scores highly and should be admitted urgently to hospital for intravenous antibiotics.'
	},
	// 4 multiple_choice (flawed gold)
	{ model: 'clinic-gpt-7b', item: 4, response: 'B. As-needed low-dose budesonide-formoterol' },
	{ model: 'medllama-13b', item: 4, response: 'As-needed low-dose budesonide-formoterol' },
	{ model: 'openmed-3b', item: 4, response: 'As-needed salbutamol alone' },
	// 5 multiple_choice
	{
		model: 'clinic-gpt-7b',
		item: 5,
		response: 'Warfarin. DOACs are contraindicated in patients with mechanical heart valves.'
	},
	{ model: 'medllama-13b', item: 5, response: 'Warfarin' },
	{ model: 'openmed-3b', item: 5, response: 'Apixaban' },
	// 6 list
	{
		model: 'clinic-gpt-7b',
		item: 6,
		response: 'Referral for upper and lower gastrointestinal investigation, Oral ferrous sulfate'
	},
	{
		model: 'medllama-13b',
		item: 6,
		response:
			'Coeliac serology, Referral for upper and lower gastrointestinal investigation, Oral ferrous sulfate'
	},
	{
		model: 'openmed-3b',
		item: 6,
		response: 'Oral ferrous sulfate, Intramuscular vitamin B12 injections, Coeliac serology'
	},
	// 7 list
	{ model: 'clinic-gpt-7b', item: 7, response: 'Diarrhoea, Lactic acidosis, Weight gain' },
	{
		model: 'medllama-13b',
		item: 7,
		response: 'Diarrhoea, Vitamin B12 deficiency, Lactic acidosis'
	},
	{
		model: 'openmed-3b',
		item: 7,
		response:
			'A: Diarrhoea, B: Vitamin B12 deficiency, E: Frequent hypoglycaemia as monotherapy\n\nMetformin commonly causes gastrointestinal upset and can lower blood sugar too much, especially in elderly patients.'
	},
	// 8 list
	{
		model: 'clinic-gpt-7b',
		item: 8,
		response: 'Bisoprolol, Ramipril, Spironolactone, Furosemide'
	},
	{
		model: 'medllama-13b',
		item: 8,
		response: 'Bisoprolol, Ramipril, Spironolactone, Dapagliflozin'
	},
	{ model: 'openmed-3b', item: 8, response: 'Furosemide, Ramipril, Bisoprolol' },
	// 9 short_answer
	{
		model: 'clinic-gpt-7b',
		item: 9,
		response: 'Final Answer: After about 6 weeks, since TSH needs time to stabilise.'
	},
	{
		model: 'medllama-13b',
		item: 9,
		response:
			'Final Answer: Recheck TSH 6–8 weeks after each dose change. Levothyroxine has a long half-life of about 7 days, and TSH responds slowly, so it takes roughly 6 weeks for thyroid hormone levels and TSH to reach a new steady state; testing earlier would give a misleading result and could lead to unnecessary further dose changes.'
	},
	{
		model: 'openmed-3b',
		item: 9,
		response:
			'Final Answer: Thyroid-stimulating hormone (TSH) should be checked again approximately 2 weeks after any change in the levothyroxine dose. Levothyroxine is a synthetic form of the thyroid hormone thyroxine (T4), which is normally produced by the thyroid gland under the control of TSH released from the anterior pituitary. When the dose is changed, the body needs some time to adjust, and checking too early or too late could lead to incorrect dose adjustments. Measuring TSH after 2 weeks allows the clinician to see whether the new dose is working and to increase it further if the patient still has symptoms such as tiredness, weight gain, constipation or feeling cold. It is also important to measure free T4 at the same time. Patients should always take their tablets at the same time each day and should be reviewed regularly by their doctor to make sure that their thyroid function remains within the normal range.'
	},
	// 10 short_answer
	{ model: 'clinic-gpt-7b', item: 10, response: 'Final Answer: FEV1/FVC ratio less than 0.7.' },
	{
		model: 'medllama-13b',
		item: 10,
		response:
			'Final Answer: Post-bronchodilator spirometry showing an FEV1/FVC ratio below 0.7 (70%), confirming airflow obstruction that is not fully reversible.'
	},
	{
		model: 'openmed-3b',
		item: 10,
		response:
			"Final Answer: The diagnosis of chronic obstructive pulmonary disease (COPD) is confirmed when spirometry shows that the forced expiratory volume in one second (FEV1) is reduced to less than 80% of the predicted value for the patient's age, height and sex. Spirometry is a simple breathing test in which the patient takes a deep breath in and blows out as hard and as fast as possible into a machine. The FEV1 is the amount of air blown out in the first second, and in COPD this is reduced because the airways are narrowed and the lungs have lost their elastic recoil. A chest X-ray may also show hyperinflated lungs. It is important to remember that smoking is the main cause of COPD and that stopping smoking is the most important treatment."
	},
	// 11 short_answer
	{
		model: 'clinic-gpt-7b',
		item: 11,
		response: 'Final Answer: Trimethoprim 200 mg twice daily for 7 days.'
	},
	{
		model: 'medllama-13b',
		item: 11,
		response:
			'Final Answer: Nitrofurantoin for 3 days (if eGFR is 45 or more), or trimethoprim for 3 days if the risk of resistance is low.'
	},
	{
		model: 'openmed-3b',
		item: 11,
		response:
			'Final Answer: For a woman with an uncomplicated lower urinary tract infection (cystitis), the first-line antibiotic is nitrofurantoin, given as 100 mg modified-release twice daily for 7 days. Urinary tract infections are very common in women because the urethra is shorter than in men, allowing bacteria such as Escherichia coli from the bowel to enter the bladder more easily. Typical symptoms include burning when passing urine (dysuria), needing to pass urine more often (frequency), urgency and lower abdominal pain. Before starting antibiotics, a urine sample should always be sent to the laboratory for culture and sensitivity testing so that the correct antibiotic can be chosen. Patients should also be advised to drink plenty of fluids, and cranberry juice may help. If symptoms do not improve, the patient should return to the surgery.'
	},
	// 12 short_inverse
	{
		model: 'clinic-gpt-7b',
		item: 12,
		response:
			'Incorrect Explanation: The answer is wrong because ramipril causes a dry cough, not ankle swelling; the cough is the usual reason to change to an ARB.'
	},
	{
		model: 'medllama-13b',
		item: 12,
		response:
			'Incorrect Explanation: Ankle swelling is not a typical reason to stop ramipril. Peripheral oedema is a characteristic adverse effect of dihydropyridine calcium-channel blockers such as amlodipine, which dilate precapillary arterioles and raise capillary pressure; ACE inhibitors do not cause it and, if anything, reduce it when combined with a calcium-channel blocker. The usual reason to switch from an ACE inhibitor to an angiotensin II receptor blocker is a persistent dry cough. ACE also breaks down bradykinin, so inhibiting it allows bradykinin to accumulate and trigger cough. ARBs block the angiotensin II receptor directly without affecting bradykinin breakdown, so cough is uncommon, while the blood-pressure-lowering and renal effects are similar. Renal function and potassium should still be checked after the switch.'
	},
	{
		model: 'openmed-3b',
		item: 12,
		response:
			'Incorrect Explanation: The statement is incorrect because angiotensin II receptor blockers such as losartan also commonly cause ankle swelling, so switching from ramipril to an ARB would not help this side effect. Both classes of drugs act on the renin-angiotensin-aldosterone system, which controls blood pressure and fluid balance, and therefore they have very similar side-effect profiles. If a patient develops ankle swelling on ramipril, the best option would be to add a diuretic such as furosemide to remove the excess fluid, or to reduce the dose of ramipril. The patient should also be advised to elevate their legs and reduce salt intake. Ankle swelling can also be a sign of heart failure, so an echocardiogram may be needed to rule this out.'
	},
	// 13 short_inverse
	{
		model: 'clinic-gpt-7b',
		item: 13,
		response:
			'Incorrect Explanation: Levothyroxine should be taken on an empty stomach, not with breakfast, and calcium reduces its absorption.'
	},
	{
		model: 'medllama-13b',
		item: 13,
		response:
			'Incorrect Explanation: Food, calcium and iron reduce rather than improve the absorption of levothyroxine. It should be taken on an empty stomach, ideally 30–60 minutes before breakfast, and calcium or iron supplements should be taken at least four hours apart from it.'
	},
	{
		model: 'openmed-3b',
		item: 13,
		response:
			"Incorrect Explanation: The answer is not correct because levothyroxine should ideally be taken at bedtime with a glass of milk, which protects the stomach and helps the tablet dissolve. Calcium does not significantly affect the absorption of levothyroxine, but it is still a good idea to leave about 30 minutes between taking the two medicines. Levothyroxine replaces the thyroxine hormone that the thyroid gland cannot make in hypothyroidism, which is most often caused by Hashimoto's thyroiditis. Taking the tablet consistently at the same time every day is the most important thing, because this keeps hormone levels stable. Patients should have their thyroid function tested regularly and tell their doctor if they notice palpitations, weight loss or tremor, which may suggest that the dose is too high."
	},
	// 14 short_inverse
	{
		model: 'clinic-gpt-7b',
		item: 14,
		response:
			'Incorrect Explanation: Codeine is not preferred for migraine; triptans with an NSAID or paracetamol are first-line.'
	},
	{
		model: 'medllama-13b',
		item: 14,
		response:
			'Incorrect Explanation: Opioids such as codeine are not recommended for acute migraine at all, let alone as first-line treatment. They are less effective than triptans and NSAIDs for migraine pain, they worsen the nausea and gastric stasis that already accompany an attack, and they carry a particular risk of medication-overuse headache and dependence; opioid use is also linked with progression from episodic to chronic migraine. The recommended first-line acute treatment is an oral triptan combined with an NSAID or paracetamol, taken as early as possible once the headache starts. Triptans should be avoided in uncontrolled hypertension and in coronary or cerebrovascular disease, and to prevent medication-overuse headache patients should take triptans on fewer than 10 days a month and simple analgesics on fewer than 15 days a month.'
	},
	{
		model: 'openmed-3b',
		item: 14,
		response:
			'Incorrect Explanation: This is only partly incorrect. Codeine-containing analgesics such as co-codamol are very effective for migraine pain and are often used when paracetamol alone is not enough, but they should not be first-line because they can cause constipation and drowsiness. Triptans such as sumatriptan are also effective, but they are usually reserved for patients with the most severe attacks because they can cause chest tightness. Migraine is a common neurological condition in which patients experience a throbbing headache, usually on one side of the head, often with nausea, vomiting and sensitivity to light. Some patients also have an aura before the headache. Keeping a headache diary is useful to identify triggers such as cheese, chocolate, red wine, stress and lack of sleep.'
	},
	// 15 multi_hop
	{
		model: 'clinic-gpt-7b',
		item: 15,
		response:
			'Final Answer: Her CHA2DS2-VASc score is 2 and she should be offered a DOAC.\nReasoning: She gets 1 point for hypertension and 1 point for being aged 65–74. A score of 2 or more means anticoagulation should be offered, and a DOAC such as apixaban is preferred to warfarin.'
	},
	{
		model: 'medllama-13b',
		item: 15,
		response:
			'Final Answer: Her CHA2DS2-VASc score is 3, so she should be offered anticoagulation, preferably with a direct oral anticoagulant such as apixaban, after assessing her bleeding risk.\nReasoning: CHA2DS2-VASc awards 1 point for hypertension, 1 point for age 65–74 and 1 point for female sex; she has no heart failure, diabetes, previous stroke or TIA, or vascular disease, so her total is 3. Anticoagulation is recommended when the score is 2 or more, so she clearly qualifies. Before starting, her bleeding risk should be estimated with a tool such as ORBIT, and modifiable risk factors such as uncontrolled blood pressure and excess alcohol addressed; a high bleeding risk is a reason to optimise these factors rather than to withhold treatment. A DOAC is preferred to warfarin because she has no mechanical valve or moderate-to-severe mitral stenosis. Aspirin is not an option, as it does not provide adequate stroke prevention in atrial fibrillation. Her renal function, weight and age should be checked to select the correct DOAC dose.'
	},
	{
		model: 'openmed-3b',
		item: 15,
		response:
			'Final Answer: She has a CHA2DS2-VASc score of 1 and should take aspirin 75 mg daily.\nReasoning: Atrial fibrillation is an irregular heart rhythm in which the upper chambers of the heart (the atria) beat chaotically, which allows blood to pool and form clots that can travel to the brain and cause a stroke. The CHA2DS2-VASc score is used to work out the risk of stroke. This patient has hypertension, which gives her 1 point. She is 72 years old, which is under 75, so she does not get points for age. Because her score is low, full anticoagulation with warfarin or a newer drug would expose her to an unnecessary risk of bleeding, especially at her age, and aspirin is a safer alternative that still gives some protection against stroke. She should also have her blood pressure well controlled and her heart rate controlled with a beta-blocker such as bisoprolol.'
	},
	// 16 multi_hop
	{
		model: 'clinic-gpt-7b',
		item: 16,
		response:
			'Final Answer: Treat at home with clarithromycin for 7 days.\nReasoning: His CRB-65 score is 0, so he is low risk and can stay at home. He is allergic to penicillin, so amoxicillin is avoided and clarithromycin is used instead.'
	},
	{
		model: 'medllama-13b',
		item: 16,
		response:
			'Final Answer: He can be managed at home with a 5-day course of doxycycline (clarithromycin is an alternative).\nReasoning: He is not confused, his respiratory rate is below 30, his blood pressure is normal and he is under 65, so his CRB-65 score is 0, indicating low-severity pneumonia suitable for treatment at home. Amoxicillin would be first-line, but his previous rash suggests penicillin allergy, so doxycycline or clarithromycin is used for 5 days. He should be told that cough can persist for up to 6 weeks and to seek review if he worsens or has not improved after 3 days.'
	},
	{
		model: 'openmed-3b',
		item: 16,
		response:
			'Final Answer: He should be treated with co-amoxiclav 625 mg three times daily for 7 days.\nReasoning: Community-acquired pneumonia is an infection of the lung tissue acquired outside hospital, and the most common organism is Streptococcus pneumoniae. His CRB-65 score is 0, which means he is at low risk and can be managed at home rather than being admitted. Co-amoxiclav is a broad-spectrum antibiotic that covers Streptococcus pneumoniae as well as Haemophilus influenzae and other organisms that produce beta-lactamase, so it is a good choice to make sure all possible bacteria are treated. A 7-day course is needed to make sure the infection is completely cleared and to prevent resistance. He should be advised to rest, drink plenty of fluids, take paracetamol for fever, and return if he becomes more breathless. A chest X-ray should be done after treatment.'
	},
	// 17 multi_hop
	{
		model: 'clinic-gpt-7b',
		item: 17,
		response:
			'Final Answer: Stop metformin because her eGFR is below 45.\nReasoning: Metformin is cleared by the kidneys and can cause lactic acidosis when renal function is reduced, so it should be stopped once eGFR falls below 45.'
	},
	{
		model: 'medllama-13b',
		item: 17,
		response:
			'Final Answer: Continue metformin but review and reduce the dose (for example to a maximum of 1 g daily), because her eGFR is now between 30 and 45; it should be stopped only if eGFR falls below 30.\nReasoning: Metformin is excreted unchanged by the kidneys, so it accumulates as renal function declines, increasing the small risk of lactic acidosis. Her eGFR has fallen from 52 to 38 mL/min/1.73 m², crossing the threshold of 45 at which the dose should be reviewed, but it remains above 30, the level below which metformin is stopped. A dose reduction therefore balances continued glycaemic benefit against safety. Her renal function should be monitored more often, at least every 3–6 months, and she should be reminded of sick day rules: withhold metformin during dehydrating illness such as vomiting or diarrhoea. If more glucose lowering is needed, drugs suitable for reduced renal function should be chosen, and the cause of her falling eGFR should be considered.'
	},
	{
		model: 'openmed-3b',
		item: 17,
		response:
			'Final Answer: Her metformin can be continued at the same dose, but her HbA1c and kidney function should be checked again in 12 months.\nReasoning: Metformin is the first-line drug for type 2 diabetes and is very safe because it does not cause hypoglycaemia or weight gain. It works by reducing glucose production in the liver and improving insulin sensitivity in the muscles. An eGFR of 38 shows that her kidney function is only mildly reduced, which is common in older people with diabetes and does not usually need any change to treatment. Stopping metformin would cause her blood sugar to rise and increase the risk of complications such as heart attack, stroke, kidney disease and eye disease. She should continue a healthy diet and regular exercise, and her blood pressure and cholesterol should also be controlled.'
	},
	// 18 multi_hop_inverse
	{
		model: 'clinic-gpt-7b',
		item: 18,
		response:
			'Incorrect Reasoning Step: 3\nIncorrect Reasoning Explanation: The target serum urate is below 360 micromol/L, not 480 micromol/L.'
	},
	{
		model: 'medllama-13b',
		item: 18,
		response:
			'Incorrect Reasoning Step: 3\nIncorrect Reasoning Explanation: Step 3 sets the urate target too high. Monosodium urate crystallises at concentrations above roughly 400 micromol/L, so a serum urate of 480 micromol/L is still supersaturated and existing crystals will not dissolve; flares and tophus formation would continue. The recommended treat-to-target approach is to titrate allopurinol monthly until serum urate is below 360 micromol/L, and below 300 micromol/L for people with tophi or continuing flares. Steps 1 and 2 are sound: three flares in a year justify long-term urate-lowering therapy, allopurinol is first-line and should be started low and titrated with colchicine prophylaxis, and his thiazide diuretic, which raises urate, should be reviewed. The correct answer is therefore to start allopurinol with flare prophylaxis and titrate it to a serum urate below 360 micromol/L.'
	},
	{
		model: 'openmed-3b',
		item: 18,
		response:
			'Incorrect Reasoning Step: 2\nIncorrect Reasoning Explanation: The second step is wrong because colchicine prophylaxis is not needed when starting allopurinol. Allopurinol is a xanthine oxidase inhibitor which reduces the production of uric acid, and once uric acid levels fall the patient will no longer have gout attacks, so there is no reason to give another drug at the same time. Colchicine also has many side effects, including diarrhoea, nausea and vomiting, and can interact with other medicines such as statins and clarithromycin. In addition, the thiazide diuretic does not need to be reviewed because it is important for controlling his blood pressure. Gout is a very painful condition caused by uric acid crystals in the joints, most commonly the big toe, and lifestyle advice about diet and alcohol is also important.'
	},
	// 19 multi_hop_inverse
	{
		model: 'clinic-gpt-7b',
		item: 19,
		response:
			'Incorrect Reasoning Step: 3\nIncorrect Reasoning Explanation: He should be referred within 2 weeks, not 6 weeks, because his NT-proBNP is above 2000 ng/L.'
	},
	{
		model: 'medllama-13b',
		item: 19,
		response:
			'Incorrect Reasoning Step: 2\nIncorrect Reasoning Explanation: An NT-proBNP of 2600 ng/L is above 2000 ng/L, the threshold for urgent referral, so specialist assessment and echocardiography should take place within 2 weeks. The 6-week pathway applies only to levels between 400 and 2000 ng/L; Step 2 places him in the wrong band, which makes the final answer wrong.'
	},
	{
		model: 'openmed-3b',
		item: 19,
		response:
			'Incorrect Reasoning Step: 1\nIncorrect Reasoning Explanation: The first step is wrong because breathlessness and ankle swelling are not specific to heart failure and can be caused by many other conditions, such as chronic obstructive pulmonary disease, kidney disease, liver disease, low albumin, venous insufficiency or medicines such as amlodipine. Therefore NT-proBNP is not the correct first test, and the patient should first have a chest X-ray, an ECG, full blood count, kidney and liver function tests and a urine dipstick to look for other causes. Heart failure is a condition in which the heart cannot pump enough blood to meet the needs of the body, and it is more common in elderly people and those with high blood pressure or previous heart attacks. Once other causes have been excluded, the patient can be referred routinely to cardiology.'
	},
	// 20 multi_hop_inverse
	{
		model: 'clinic-gpt-7b',
		item: 20,
		response:
			'Incorrect Reasoning Step: 3\nIncorrect Reasoning Explanation: ICS are not indicated without asthmatic features; LABA plus LAMA should be added.'
	},
	{
		model: 'medllama-13b',
		item: 20,
		response:
			'Incorrect Reasoning Step: 3\nIncorrect Reasoning Explanation: Step 3 wrongly assumes that inhaled corticosteroids benefit all people with COPD. In COPD the airway inflammation is largely neutrophilic and responds poorly to corticosteroids; ICS help mainly those with asthmatic or steroid-responsive features, such as a raised blood eosinophil count, marked variation in FEV1 or a previous diagnosis of asthma or atopy. They also increase the risk of pneumonia. Because Step 2 established that he has none of these features and a normal eosinophil count, the appropriate next step is dual long-acting bronchodilation with a LABA plus a LAMA, not a LABA plus an ICS. Inhaler technique, smoking status and referral for pulmonary rehabilitation should also be reviewed before treatment is escalated.'
	},
	{
		model: 'openmed-3b',
		item: 20,
		response:
			'Incorrect Reasoning Step: 4\nIncorrect Reasoning Explanation: The final step is incorrect because a LABA with an inhaled corticosteroid is not enough for this patient. Because he is still breathless despite salbutamol, he should be started on triple therapy with a long-acting beta2 agonist, a long-acting muscarinic antagonist and an inhaled corticosteroid in a single inhaler, which gives the maximum bronchodilation and reduces inflammation at the same time. COPD is a progressive lung disease, mainly caused by smoking, which includes chronic bronchitis and emphysema, and it leads to airflow obstruction that is not fully reversible. Patients should also receive annual influenza vaccination and pneumococcal vaccination, be encouraged to exercise, and be given a rescue pack of antibiotics and steroids to keep at home in case of exacerbations.'
	}
];

/** A gold QA pair of the demo's reviewers' qualification round (quality/review-round.ts). */
export interface DemoReviewGold {
	item: DemoQaRecord;
	passage: string;
	verdict: 'correct' | 'incorrect' | 'cannot_tell';
	relevance: number;
	explanation: string;
}

const HYPERTENSION = demoPassages[0];
const METFORMIN = demoPassages[1];
const sourceOf = (p: DemoPassage): DemoSource => ({
	isbn: p.isbn,
	page: p.page,
	paragraph_id: p.paragraph_id
});

/**
 * The demo's reviewers' round: seven pairs on two of the demo passages, some right, some wrong,
 * one the passage cannot decide, each with the reason a trainer would give.
 */
export const DEMO_REVIEW_GOLD: DemoReviewGold[] = [
	{
		item: {
			question:
				'Hypertension is confirmed with ambulatory or home monitoring when clinic readings are 140/90 mmHg or higher.',
			answer: 'True',
			source: sourceOf(HYPERTENSION),
			type: 'true_false'
		},
		passage: HYPERTENSION.text,
		verdict: 'correct',
		relevance: 5,
		explanation:
			'The passage says so in its first sentence, and confirming a raised clinic reading is everyday general practice.'
	},
	{
		item: {
			question:
				'Which drug is usually started for hypertension in a 60-year-old without type 2 diabetes?',
			options: [
				'An ACE inhibitor',
				'A calcium-channel blocker',
				'A beta blocker',
				'A loop diuretic'
			],
			correct_answer: 'An ACE inhibitor',
			source: sourceOf(HYPERTENSION),
			type: 'multiple_choice'
		},
		passage: HYPERTENSION.text,
		verdict: 'incorrect',
		relevance: 5,
		explanation:
			'People aged 55 or over usually start a calcium-channel blocker; the ACE inhibitor is for adults under 55.'
	},
	{
		item: {
			question: 'What replaces an ACE inhibitor that causes a dry cough?',
			answer: 'An angiotensin II receptor blocker (ARB).',
			source: sourceOf(HYPERTENSION),
			type: 'short_answer'
		},
		passage: HYPERTENSION.text,
		verdict: 'correct',
		relevance: 4,
		explanation: 'The passage names the ARB as the substitute when the cough appears.'
	},
	{
		item: {
			question: 'Metformin used alone commonly causes hypoglycaemia.',
			answer: 'True',
			source: sourceOf(METFORMIN),
			type: 'true_false'
		},
		passage: METFORMIN.text,
		verdict: 'incorrect',
		relevance: 4,
		explanation:
			'The passage says metformin alone rarely causes hypoglycaemia: the answer is False.'
	},
	{
		item: {
			question: 'Below which eGFR is metformin stopped?',
			answer: '30 mL/min/1.73 m²',
			source: sourceOf(METFORMIN),
			type: 'short_answer'
		},
		passage: METFORMIN.text,
		verdict: 'correct',
		relevance: 3,
		explanation:
			'Stopped below 30 and reviewed below 45: right, and a GP meets it, though less often than the starting dose.'
	},
	{
		item: {
			question: 'Which are effects of long-term metformin use named in the passage?',
			options: [
				'Reduced vitamin B12 absorption',
				'Weight gain',
				'Hypoglycaemia when used alone',
				'Hair loss'
			],
			answer: ['Reduced vitamin B12 absorption', 'Weight gain'],
			source: sourceOf(METFORMIN),
			type: 'list'
		},
		passage: METFORMIN.text,
		verdict: 'incorrect',
		relevance: 3,
		explanation:
			'Metformin does not cause weight gain, says the passage; only the B12 effect belongs in the answer.'
	},
	{
		item: {
			question: 'What HbA1c should every adult with type 2 diabetes reach on metformin?',
			answer: '48 mmol/mol',
			source: sourceOf(METFORMIN),
			type: 'short_answer'
		},
		passage: METFORMIN.text,
		verdict: 'cannot_tell',
		relevance: 4,
		explanation:
			'The passage speaks of an individual HbA1c target and gives no number, so it cannot decide this answer.'
	}
];
